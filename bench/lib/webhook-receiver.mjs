/**
 * A webhook receiver in a process of its own (bench/webhook-blackhole.mjs forks it), so its work
 * (writing 10 MB answers) never delays the bench's own health probes. `process.argv[2]`:
 * `blackhole` (reads every request, never answers) or `flood` (answers 10 MB). Sends
 * `{ port }` once listening; answers `'stats'` with `{ open, maxOpen, total }`.
 */
import { createServer } from 'node:net'

const TEN_MB = Buffer.alloc(10 * 1024 * 1024, 0x61)
const mode = process.argv[2]
let open = 0
let maxOpen = 0
let total = 0
const server = createServer((socket) => {
  open++
  total++
  maxOpen = Math.max(maxOpen, open)
  socket.on('error', () => {})
  socket.on('close', () => open--)
  if (mode === 'flood') {
    socket.once('data', () => {
      socket.write(`HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: ${TEN_MB.length}\r\n\r\n`)
      socket.write(TEN_MB)
    })
  } else socket.resume()
})
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }))
process.on('message', (message) => {
  if (message === 'stats') process.send({ open, maxOpen, total })
})
