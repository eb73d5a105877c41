/**
 * The MSW floor: bare node:http + msw's public `getResponse` + ONE handler returning a fixed
 * JSON (the same objects the sandbox answered). No validation, no state: what remains is the
 * cost of msw's Fetch Request/Response work, the floor of any server built on msw handlers.
 * The adapter is the plain one: buffer the body, build a Fetch Request, write the Response.
 * Usage: node bench/targets/msw-floor-server.mjs --port N --answers FILE
 */
import { createServer } from 'node:http'
import { getResponse, http, HttpResponse } from 'msw'
import { answerFor, targetArgs } from './answers.mjs'

const { port, answers } = targetArgs()
const origin = `http://127.0.0.1:${port}`
const objects = { send: JSON.parse(answers.send), list: JSON.parse(answers.list), byId: JSON.parse(answers.byId) }
const handlers = [
  http.all(`${origin}/*`, ({ request }) =>
    HttpResponse.json(answerFor(objects, request.method, request.url.slice(origin.length))),
  ),
]

createServer((req, res) => {
  const chunks = []
  req.on('data', (chunk) => chunks.push(chunk))
  req.on('end', async () => {
    const method = req.method ?? 'GET'
    const hasBody = method !== 'GET' && method !== 'HEAD' && chunks.length > 0
    const headers = new Headers()
    for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1])
    const request = new Request(origin + req.url, {
      method,
      headers,
      body: hasBody ? Buffer.concat(chunks) : undefined,
    })
    const response = await getResponse(handlers, request)
    if (!response) {
      res.writeHead(404).end()
      return
    }
    const payload = Buffer.from(await response.arrayBuffer())
    const out = {}
    response.headers.forEach((value, name) => {
      out[name] = value
    })
    out['content-length'] = String(payload.length)
    res.writeHead(response.status, out)
    res.end(payload)
  })
}).listen(port, '127.0.0.1')
