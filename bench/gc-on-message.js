// Preloaded into the soak's server (`node --expose-gc --import`): a full collection when the soak
// asks over IPC, then the process's memory as Node sees it, so the soak reads memory after a GC
// and can tell the JavaScript heap from what the process holds besides it.
import { writeHeapSnapshot } from 'node:v8'

process.on('message', (message) => {
  if (message === 'gc') {
    globalThis.gc?.()
    process.send?.(process.memoryUsage())
  } else if (typeof message === 'object' && message?.snapshot) {
    // `--heap-snapshots`: what holds the memory, to compare two moments of the soak.
    globalThis.gc?.()
    process.send?.({ snapshot: writeHeapSnapshot(message.snapshot) })
  }
})
// The IPC channel must not keep a server that is asked to stop alive.
process.channel?.unref()
