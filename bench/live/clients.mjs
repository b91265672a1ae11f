// bench/live's clients, in a worker thread of their own (bench/live/run.ts): on a 2-core machine the clients' reading
// and parsing would otherwise share the server's event loop and be counted as the server's delay. Connects
// workerData.count clients to workerData.url, each subscribed to the market, and records when each market event
// arrived; answers 'collect' with the receipt times by event number, and closes the clients on 'close'.
import { parentPort, workerData } from 'node:worker_threads'
import { WebSocket } from 'ws'

const { url, count } = workerData
/** Per client: receipt time (ms since the epoch, fractional) by event number. */
const clients = []

for (let start = 0; start < count; start += 200) {
  const batch = Array.from({ length: Math.min(200, count - start) }, async () => {
    const socket = new WebSocket(url)
    const received = new Map()
    clients.push({ socket, received })
    await new Promise((resolve, reject) => {
      socket.on('message', (data) => {
        const message = JSON.parse(data.toString())
        if (message.type === 'event' && message.topic === 'market')
          received.set(message.seq, performance.timeOrigin + performance.now())
        else if (message.type === 'ping') socket.send('{"op":"pong"}')
        else if (message.type === 'subscribed') resolve()
      })
      socket.once('open', () => socket.send('{"op":"sub","topic":"market"}'))
      socket.once('error', reject)
    })
  })
  await Promise.all(batch)
}
parentPort.postMessage({ type: 'ready' })

parentPort.on('message', async (message) => {
  if (message.type === 'collect') {
    const complete = clients.every((client) => client.received.has(message.last))
    parentPort.postMessage({ type: 'collected', complete, received: clients.map((client) => [...client.received]) })
  } else if (message.type === 'close') {
    await Promise.all(
      clients.map(
        ({ socket }) =>
          new Promise((resolve) => {
            socket.once('close', resolve)
            socket.terminate()
          }),
      ),
    )
    parentPort.postMessage({ type: 'closed' })
  }
})
