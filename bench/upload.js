// The 500 MB upload proof, the last phase of each engine in scripts/bench.js (BENCH_SKIP_UPLOAD=1
// skips it). An admin creates a session as the dialog does (multipart post of the form to the
// Sesiones tab's action, read as the fetcher reads it), then sends a 500 MB "video" to the
// address it answered, by the embedded provider's resumable protocol
// (app/features/ceo-sessions/video-upload.route.ts, local-video.server.ts): PUT of 5 MiB chunks
// with Content-Range, 308 + Range after each, 201 after the last. One chunk is cut half-way (the
// socket destroyed), the server is asked how far it got (`bytes */total`) and the upload goes on
// from there. The server's resident memory is sampled throughout: the bytes must go to disk as
// they arrive, so the server's peak stays far below the 500 MB it received. The session is
// deleted at the end, which must remove its files (the disk is checked).
//
// The bytes: an MP4 `ftyp` box, then zeros, from two reused 5 MiB buffers (the bench holds no
// more than that). They pass the upload's check of the first bytes; the processing job's ffprobe,
// when installed, refuses them (no `moov` box): 'failed' is then the expected end of processing.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream } from 'react-router'

export const UPLOAD_BYTES = 524_288_000
export const CHUNK_BYTES = 5_242_880
/** The chunk that is cut half-way (0-based), in the middle of the upload. */
const CUT_CHUNK = 50
/** The chunk whose SQL statements are counted (any chunk but the first and the last). */
const COUNTED_CHUNK = 10
const SESSIONS_DATA = '/comunidad/sesiones.data'
const SESSIONS_ROUTE = 'features/ceo-sessions/ceo-sessions.route'
const PROCESSING_TIMEOUT_MS = 180_000
const MiB = 1_048_576

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** A single-fetch answer (turbo-stream) decoded as React Router's fetcher decodes it. */
export async function readSingleFetch(response) {
  const { value } = await decodeViaTurboStream(response.body, globalThis)
  return value
}

/** The last byte a `Range: bytes=0-N` header says the server has, or -1 without one (nothing yet). */
const rangeEnd = (header) => (header ? Number(/^bytes=0-(\d+)$/.exec(header)?.[1] ?? Number.NaN) : -1)

/**
 * One PUT on a keep-alive agent; `cutAfter` sends only that many bytes of the body and then
 * destroys the socket, as a dropped connection does.
 */
function put(url, { agent, headers, body, cutAfter }) {
  return new Promise((resolve) => {
    const request = http.request(
      url,
      { method: 'PUT', agent, headers: { ...headers, 'Content-Length': String(body.length) } },
      (response) => {
        const chunks = []
        response.on('data', (chunk) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode,
            range: response.headers.range,
            body: Buffer.concat(chunks).toString('utf8').slice(0, 300),
          }),
        )
        response.on('error', (error) => resolve({ status: null, error: error.message }))
      },
    )
    request.on('error', (error) => resolve({ status: null, error: error.message }))
    if (cutAfter === undefined) return request.end(body)
    // Written to the socket, then a moment for the server to read it, then the connection drops.
    request.write(body.subarray(0, cutAfter), () =>
      setTimeout(() => {
        request.destroy()
        resolve({ status: null, cut: true })
      }, 100),
    )
  })
}

/**
 * Runs the proof against the server (pid `serverPid`, data folder `dataDir`) signed in as the
 * admin (`cookie`). `usage(pid)` reads a process's memory; `statementsOf(id)` reads the query
 * counter for a request tagged with `x-bench-id: id`.
 */
export async function uploadProof({ baseUrl, cookie, serverPid, dataDir, usage, statementsOf }) {
  const browser = { Cookie: cookie, Origin: baseUrl, 'Sec-Fetch-Site': 'same-origin' }
  const problems = []

  // --- memory: sampled every 100 ms and after every chunk; the kernel's peak (VmHWM) is reset
  // before the upload (clear_refs 5, Linux ≥ 4.0) so that it is the peak of the upload alone.
  let sampledPeak = 0
  let benchPeak = 0
  const sample = () => {
    const now = usage(serverPid)
    if (now) sampledPeak = Math.max(sampledPeak, now.rssMiB)
    benchPeak = Math.max(benchPeak, Math.round(process.memoryUsage().rss / MiB))
    return now
  }
  const resetPeak = () => {
    try {
      writeFileSync(`/proc/${serverPid}/clear_refs`, '5')
      return true
    } catch {
      return false
    }
  }
  const baseline = sample()
  const kernelPeak = resetPeak()
  sampledPeak = baseline?.rssMiB ?? 0
  const sampler = setInterval(sample, 100)

  try {
    // --- the session, as the dialog creates it ---------------------------------------------------
    const form = new FormData()
    for (const [name, value] of Object.entries({
      intent: 'create-session',
      title: 'Sesión de prueba de carga: subida de 500 MB',
      summary: 'Una sesión creada por el benchmark para medir la memoria del servidor durante la subida.',
      description: 'Se elimina al terminar la medición.',
      ceoName: 'Benchmark',
      ceoPosition: 'CEO',
      ceoCompany: 'Laboratorios Norte',
      sessionDate: '2026-11-05T19:00',
      videoSize: String(UPLOAD_BYTES),
      videoType: 'video/mp4',
    }))
      form.append(name, value)
    const createdResponse = await fetch(`${baseUrl}${SESSIONS_DATA}`, { method: 'POST', headers: browser, body: form })
    const created = await readSingleFetch(createdResponse)
    const { sessionId, uploadUrl } = created?.data ?? {}
    if (createdResponse.status !== 200 || !created?.data?.ok || !uploadUrl) {
      throw new Error(`creating the session answered ${createdResponse.status}: ${JSON.stringify(created).slice(0, 300)}`)
    }
    const uploadId = uploadUrl.split('/').pop()
    const target = `${baseUrl}${uploadUrl}`

    // --- the chunks ------------------------------------------------------------------------------
    const head = Buffer.alloc(CHUNK_BYTES)
    Buffer.from('\0\0\0\x18ftypmp42\0\0\0\0', 'latin1').copy(head)
    const zeros = Buffer.alloc(CHUNK_BYTES)
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    const statuses = {}
    const unexpected = {}
    const resume = {}
    let offset = 0
    let sentBytes = 0
    let requests = 0
    let busyRetries = 0
    let chunkStatements = null
    let done = false
    const began = performance.now()
    while (!done) {
      if (++requests > 4 * (UPLOAD_BYTES / CHUNK_BYTES)) throw new Error(`the upload made no progress (at byte ${offset})`)
      const end = Math.min(offset + CHUNK_BYTES, UPLOAD_BYTES) - 1
      const body = (offset === 0 ? head : zeros).subarray(0, end - offset + 1)
      const headers = { ...browser, 'Content-Type': 'application/octet-stream', 'Content-Range': `bytes ${offset}-${end}/${UPLOAD_BYTES}` }
      const chunk = offset / CHUNK_BYTES

      if (chunk === CUT_CHUNK && !resume.cutAt) {
        resume.cutAt = offset + Math.floor(body.length / 2)
        await put(target, { agent, headers, body, cutAfter: Math.floor(body.length / 2) })
        sentBytes += Math.floor(body.length / 2)
        const cutDone = performance.now()
        const asked = await put(target, {
          agent,
          headers: { ...browser, 'Content-Range': `bytes */${UPLOAD_BYTES}` },
          body: Buffer.alloc(0),
        })
        resume.query = { status: asked.status, range: asked.range ?? null }
        if (asked.status === 308) {
          offset = rangeEnd(asked.range) + 1
        } else {
          // The client cannot know what arrived: it sends the cut chunk again (a 409 says where the server is).
          problems.push(
            `asking how far the upload got (Content-Range: bytes */${UPLOAD_BYTES}) answered ${asked.status}, not 308 with a Range`,
          )
        }
        resume.resumedFrom = offset
        resume.cutDone = cutDone
        continue
      }

      const id = chunk === COUNTED_CHUNK ? `bench-upload-${process.pid}-${offset}` : null
      const answer = await put(target, { agent, headers: id ? { ...headers, 'x-bench-id': id } : headers, body })
      sample()
      if (id && statementsOf) chunkStatements = (await statementsOf(id))?.count ?? null
      if (answer.status === null) throw new Error(`chunk at byte ${offset}: ${answer.error}`)
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1
      sentBytes += body.length
      if (answer.status === 409 && answer.range !== undefined) {
        const next = rangeEnd(answer.range) + 1
        if (next === offset) {
          // Busy: after the cut, the dropped request holds the write lease until the server sees it gone.
          if (resume.cutDone && resume.resumedMs === undefined) busyRetries += 1
          await sleep(100)
        }
        offset = next
        continue
      }
      const last = end === UPLOAD_BYTES - 1
      const expected = last ? 201 : 308
      if (answer.status !== expected) {
        unexpected[answer.status] ??= { count: 0, expected, first: `chunk ${chunk}: HTTP ${answer.status} ${answer.body}` }
        unexpected[answer.status].count += 1
      } else if (!last && rangeEnd(answer.range) !== end) {
        problems.push(`chunk ${chunk}: 308 with Range ${answer.range}, expected bytes=0-${end}`)
      }
      if (answer.status === 201) done = true
      else if (answer.status === 308) offset = rangeEnd(answer.range) + 1
      // Any other answer: the next chunk follows; a 409 with the server's Range corrects it if needed.
      else if (answer.status >= 500 || answer.status < 400) offset = end + 1
      else throw new Error(`chunk ${chunk} refused: HTTP ${answer.status} ${answer.body}`)
      if (resume.cutDone && resume.resumedMs === undefined && answer.status !== 409) {
        resume.resumedMs = Math.round(performance.now() - resume.cutDone)
      }
    }
    const seconds = (performance.now() - began) / 1000
    agent.destroy()
    const afterUpload = sample()
    const uploadPeak = kernelPeak ? (usage(serverPid)?.peakRssMiB ?? sampledPeak) : sampledPeak
    for (const [status, { count, expected, first }] of Object.entries(unexpected)) {
      problems.push(`${count} chunk(s) answered ${status} instead of ${expected}; first: ${first}`)
    }
    delete resume.cutDone

    // --- processing (the job: move to storage, ffprobe, poster), followed as the admin's panel shows it
    if (kernelPeak) resetPeak()
    sampledPeak = afterUpload?.rssMiB ?? 0
    const processingBegan = performance.now()
    let processing = { status: 'processing' }
    while (performance.now() - processingBegan < PROCESSING_TIMEOUT_MS) {
      const response = await fetch(`${baseUrl}${SESSIONS_DATA}?_routes=${encodeURIComponent(SESSIONS_ROUTE)}`, {
        headers: { Cookie: cookie },
      })
      const panel = (await readSingleFetch(response))?.[SESSIONS_ROUTE]?.data
      const row = panel?.inProcess?.find((session) => session.id === sessionId)
      if (row && row.publicationStatus !== 'processing') {
        processing = { status: row.publicationStatus, uploadStatus: row.uploadStatus }
        break
      }
      await sleep(250)
    }
    processing.seconds = Math.round((performance.now() - processingBegan) / 100) / 10
    processing.peakRssMiB = kernelPeak ? (usage(serverPid)?.peakRssMiB ?? sampledPeak) : sampledPeak
    if (processing.status === 'processing') problems.push(`processing did not end within ${PROCESSING_TIMEOUT_MS / 1000} s`)

    // --- deletion, and what it leaves on disk ------------------------------------------------------
    const deletedResponse = await fetch(`${baseUrl}${SESSIONS_DATA}`, {
      method: 'POST',
      headers: { ...browser, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ intent: 'delete-session', sessionId }),
    })
    const deleted = await readSingleFetch(deletedResponse)
    if (deletedResponse.status !== 200 || !deleted?.data?.ok) {
      problems.push(`deleting the session answered ${deletedResponse.status}: ${JSON.stringify(deleted).slice(0, 200)}`)
    }
    const leftOnDisk = filesUnder([
      path.join(dataDir, 'video-uploads', `${uploadId}.part`),
      path.join(dataDir, 'uploads', 'sessions', sessionId),
    ])
    if (leftOnDisk.bytes)
      problems.push(`${leftOnDisk.files.join(', ')} left on disk after deleting the session (${leftOnDisk.bytes} bytes)`)
    await sleep(500)
    const afterAll = sample()

    return {
      bytes: UPLOAD_BYTES,
      chunkBytes: CHUNK_BYTES,
      chunks: UPLOAD_BYTES / CHUNK_BYTES,
      requests,
      sentBytes,
      seconds: Math.round(seconds * 10) / 10,
      mibPerSecond: Math.round((UPLOAD_BYTES / MiB / seconds) * 10) / 10,
      statuses,
      statementsPerChunk: chunkStatements,
      resume: { ...resume, cutChunk: CUT_CHUNK, busyRetries },
      memory: {
        exactPeak: kernelPeak,
        baselineRssMiB: baseline?.rssMiB ?? null,
        uploadPeakRssMiB: uploadPeak,
        afterUploadRssMiB: afterUpload?.rssMiB ?? null,
        processingPeakRssMiB: processing.peakRssMiB,
        afterDeleteRssMiB: afterAll?.rssMiB ?? null,
        benchPeakRssMiB: benchPeak,
      },
      processing,
      deleted: Boolean(deleted?.data?.ok),
      leftOnDiskBytes: leftOnDisk.bytes,
      problems,
    }
  } finally {
    clearInterval(sampler)
  }
}

/** The files (and their total size) that remain of the given files and folders. */
function filesUnder(paths) {
  const files = []
  let bytes = 0
  const visit = (target) => {
    if (!existsSync(target)) return
    const info = statSync(target)
    if (info.isDirectory()) for (const entry of readdirSync(target)) visit(path.join(target, entry))
    else {
      files.push(target)
      bytes += info.size
    }
  }
  for (const target of paths) visit(target)
  return { files, bytes }
}

/** The proof's figures, for the terminal. */
export function printUpload(upload) {
  const m = upload.memory
  const peakKind = m.exactPeak ? 'kernel peak (VmHWM, reset before)' : 'highest sample (every 100 ms and every chunk)'
  console.log(`\n500 MB upload (admin, ${upload.chunks} chunks of ${upload.chunkBytes / MiB} MiB, one cut half-way and resumed):`)
  console.log(
    `  server RSS: baseline ${m.baselineRssMiB} MiB, peak during the upload ${m.uploadPeakRssMiB} MiB ` +
      `(+${m.uploadPeakRssMiB - m.baselineRssMiB} MiB; ${peakKind}), right after it ${m.afterUploadRssMiB} MiB, ` +
      `peak while processing ${m.processingPeakRssMiB} MiB, after deleting ${m.afterDeleteRssMiB} MiB`,
  )
  console.log(`  bench process peak RSS ${m.benchPeakRssMiB} MiB (the chunks come from two reused buffers)`)
  console.log(
    `  ${(upload.bytes / MiB).toFixed(0)} MiB in ${upload.seconds} s: ${upload.mibPerSecond} MiB/s; ${upload.requests} requests, ` +
      `answers ${JSON.stringify(upload.statuses)}; ${upload.statementsPerChunk ?? '?'} SQL statements per chunk`,
  )
  const r = upload.resume
  console.log(
    `  cut at byte ${r.cutAt?.toLocaleString('en')} (chunk ${r.cutChunk}): \`bytes */total\` answered ${r.query?.status}` +
      `${r.query?.range ? ` with Range ${r.query.range}` : ' without a Range'}; resumed from byte ${r.resumedFrom?.toLocaleString('en')}` +
      `${r.busyRetries ? ` after ${r.busyRetries} 'busy' 409(s) (the dropped request's write lease)` : ''}` +
      `${r.resumedMs !== undefined ? `, ${r.resumedMs} ms after the cut` : ''}`,
  )
  const p = upload.processing
  console.log(
    `  processing: ${p.status}${p.uploadStatus ? ` (upload ${p.uploadStatus})` : ''} after ${p.seconds} s` +
      (p.status === 'failed' ? ' (expected: ffprobe finds no video in the synthetic bytes)' : ''),
  )
  console.log(`  deleted: ${upload.deleted ? 'yes' : 'NO'}; left on disk: ${upload.leftOnDiskBytes} bytes`)
  for (const problem of upload.problems) console.log(`  PROBLEM: ${problem}`)
}
