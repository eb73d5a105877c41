import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { CLI } from '../cli-child.js'

describe('sendbox openapi | head', () => {
  it('exits 0 without a stack trace when its reader leaves after the first bytes', async () => {
    const child = spawn(process.execPath, [CLI, 'openapi'], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (data: string) => (stderr += data))
    const [first] = (await once(child.stdout, 'data')) as [Buffer]
    // What `head -c` does: read a little, then close the pipe.
    child.stdout.destroy()
    const [code] = (await once(child, 'close')) as [number | null]
    expect(first.toString('utf8')).toMatch(/^\{/)
    expect(stderr).toBe('')
    expect(code).toBe(0)
  }, 30_000)
})
