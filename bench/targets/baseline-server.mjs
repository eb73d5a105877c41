/**
 * The bare baseline: node:http answering the same JSON as the sandbox, with no msw, no
 * validation, no state. It reads each request body to the end, as any server must.
 * Usage: node bench/targets/baseline-server.mjs --port N --answers FILE
 */
import { createServer } from 'node:http'
import { answerFor, targetArgs } from './answers.mjs'

const { port, answers } = targetArgs()
const encoded = { send: Buffer.from(answers.send), list: Buffer.from(answers.list), byId: Buffer.from(answers.byId) }

createServer((req, res) => {
  req.on('data', () => {})
  req.on('end', () => {
    const payload = answerFor(encoded, req.method, req.url ?? '/')
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': payload.length })
    res.end(payload)
  })
}).listen(port, '127.0.0.1')
