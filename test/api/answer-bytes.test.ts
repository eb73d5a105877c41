import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { standalone } from '../helpers.js'

/**
 * The standalone server writes an answer of 1,024 characters or more as encoded bytes, kept for
 * the next answer with the same text (a list page answered again): the length must be the UTF-8
 * byte count of multi-byte text, a second answer the same bytes, HEAD the headers alone, and an
 * answer to another page its own bytes, never the kept ones.
 */
interface Raw {
  status: number
  headers: Record<string, string | string[] | undefined>
  bytes: Buffer
}

function get(port: number, method: string, path: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { authorization: 'Bearer test_pro' } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }))
      },
    )
    req.on('error', reject)
    req.end()
  })
}

describe('answers written as bytes', () => {
  let server: Awaited<ReturnType<typeof standalone>>
  let port: number

  beforeAll(async () => {
    server = await standalone()
    port = Number(new URL(server.running.url).port)
    const names = ['Zoë Ångström 🚀', 'Łukasz Żółć', '李小龍 とうきょう', 'Ana']
    for (let i = 0; i < 30; i++) {
      const response = await fetch(`${server.base}/subscribers`, {
        method: 'POST',
        headers: { authorization: 'Bearer test_pro', 'content-type': 'application/json' },
        body: JSON.stringify({ email: `s${i}@example.com`, first_name: `${names[i % names.length]} ${i}` }),
      })
      expect(response.status).toBe(200)
    }
  })
  afterAll(() => server.close())

  it('gives the UTF-8 length of a multi-byte page, the same bytes again, and its own bytes for another page', async () => {
    const first = await get(port, 'GET', '/v1/subscribers?page=1&limit=20')
    expect(first.status).toBe(200)
    const text = first.bytes.toString('utf8')
    expect(text.length).toBeGreaterThanOrEqual(1024)
    expect(first.bytes.byteLength).toBeGreaterThan(text.length) // multi-byte characters in it
    expect(Number(first.headers['content-length'])).toBe(first.bytes.byteLength)
    expect(JSON.parse(text).data.map((s: { first_name: string }) => s.first_name)).toContain('Zoë Ångström 🚀 0')

    const again = await get(port, 'GET', '/v1/subscribers?page=1&limit=20')
    expect(again.bytes.equals(first.bytes)).toBe(true)

    const other = await get(port, 'GET', '/v1/subscribers?page=2&limit=20')
    expect(Number(other.headers['content-length'])).toBe(other.bytes.byteLength)
    const otherPage = JSON.parse(other.bytes.toString('utf8'))
    expect(otherPage.data).toHaveLength(10)
    expect(otherPage.pagination.page).toBe(2)

    const head = await get(port, 'HEAD', '/v1/subscribers?page=1&limit=20')
    expect(head.status).toBe(200)
    expect(head.bytes.byteLength).toBe(0)
  })

  it('answers a changed page with its new bytes', async () => {
    const before = await get(port, 'GET', '/v1/subscribers?page=1&limit=20')
    const id = JSON.parse(before.bytes.toString('utf8')).data[0].id
    const renamed = await fetch(`${server.base}/subscribers/${id}`, {
      method: 'PUT',
      headers: { authorization: 'Bearer test_pro', 'content-type': 'application/json' },
      body: JSON.stringify({ first_name: 'Ренамед Ωmega' }),
    })
    expect(renamed.status).toBe(200)
    const after = await get(port, 'GET', '/v1/subscribers?page=1&limit=20')
    expect(Number(after.headers['content-length'])).toBe(after.bytes.byteLength)
    const page = JSON.parse(after.bytes.toString('utf8'))
    expect(page.data.find((s: { id: string; first_name: string }) => s.id === id).first_name).toBe('Ренамед Ωmega')
  })
})
