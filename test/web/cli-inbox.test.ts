import { afterAll, describe, expect, it } from 'vitest'
import { startCli, type CliChild } from '../cli-child.js'

// `npm start` as a new user meets it: the printed inbox URL answers, through the bundled CLI
// (whose copy of the handlers imports the inbox's files through its loader).
describe('the CLI and the web inbox', () => {
  let cli: CliChild | undefined
  afterAll(() => cli?.kill())

  it('prints the inbox URL, which serves the page; / redirects to it', async () => {
    cli = await startCli(['--port', '0', '--no-ui'])
    await expect.poll(() => cli!.stdout()).toMatch(/^web inbox: http:\/\/127\.0\.0\.1:\d+\/__sandbox\/ui\/$/m)
    const url = /^web inbox: (\S+)$/m.exec(cli.stdout())![1]
    const page = await fetch(url)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(await page.text()).toContain('<div id="app"></div>')
    const script = await fetch(new URL('app.js', url))
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    const root = await fetch(`${cli.origin}/`, { redirect: 'manual' })
    expect(root.status).toBe(302)
    expect(root.headers.get('location')).toBe('/__sandbox/ui/')
  })
})
