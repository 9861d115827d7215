import net from 'node:net'

/**
 * A TCP proxy in front of a database server, to play what a failover does to the app: `refuse()`
 * drops every open connection (as a server that went away does) and refuses new ones; `allow()`
 * lets them through again. Connections are piped byte for byte otherwise.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const open = new Set<net.Socket>()
  let refusing = false
  const server = net.createServer((client) => {
    if (refusing) return void client.destroy()
    const upstream = net.connect(target.port, target.host)
    open.add(client).add(upstream)
    const close = () => {
      client.destroy()
      upstream.destroy()
      open.delete(client)
      open.delete(upstream)
    }
    client.on('error', close).on('close', close)
    upstream.on('error', close).on('close', close)
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  return {
    port,
    refuse() {
      refusing = true
      for (const socket of open) socket.destroy()
    },
    allow() {
      refusing = false
    },
    async close() {
      refusing = true
      for (const socket of open) socket.destroy()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
