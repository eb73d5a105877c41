import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { afterAll, describe, expect, it } from 'vitest'

/**
 * Routes declare their success by status, and the compiler holds a resolver to its route
 * (issue 28): a 204 route answers no body, a JSON route answers its schema's shape. A scratch
 * file of declarations is type-checked with the project's settings; the lines that must fail are
 * marked `// error`, and exactly those fail. (A literal in a returned body needs `as const`: TypeScript
 * widens `true` in a resolver's return before it meets the schema's `z.literal(true)`.)
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const FILE = join(ROOT, 'src', 'http', '.route-typing-scratch.ts')

const SOURCE = `import { z } from 'zod'
import { apiRoute, controlRoute } from './route.js'
const ok = z.object({ ok: z.literal(true), count: z.number() })
const base = { method: 'DELETE', path: '/things/{id}', operationId: 'x', tag: 't', summary: 's' } as const
apiRoute({ ...base, status: 204, response: { empty: true }, resolve: (_ctx) => ({ empty: true }) })
apiRoute({ ...base, response: ok, resolve: (_ctx) => ({ body: { ok: true as const, count: 1 } }) })
apiRoute({ ...base, status: 201, response: ok, resolve: (_ctx) => ({ json: '{"ok":true,"count":1}' }) })
controlRoute({ method: 'GET', path: '/__sandbox/x', operationId: 'y', summary: 's', response: { html: true }, resolve: (_ctx) => new Response('<p>') })
apiRoute({ ...base, status: 204, response: ok, resolve: (_ctx) => ({ body: { ok: true as const, count: 1 } }) }) // error: a 204 has no body
apiRoute({ ...base, response: { empty: true }, resolve: (_ctx) => ({ empty: true }) }) // error: an empty answer is a 204
apiRoute({ ...base, status: 204, response: { empty: true }, resolve: (_ctx) => ({ body: { ok: true as const, count: 1 } }) }) // error: body on an empty route
apiRoute({ ...base, response: ok, resolve: (_ctx) => ({ body: { ok: true as const } }) }) // error: count missing
apiRoute({ ...base, response: ok, resolve: (_ctx) => ({ body: { ok: false, count: 1 } }) }) // error: ok is true
controlRoute({ method: 'GET', path: '/__sandbox/x', operationId: 'y', summary: 's', response: { html: true }, resolve: (_ctx) => ({ body: '<p>' }) }) // error: HTML is a Response
`

afterAll(() => rmSync(FILE, { force: true }))

describe('route declarations', () => {
  it('fail to compile exactly where the answer does not fit the declared response and status', () => {
    writeFileSync(FILE, SOURCE)
    const config = ts.getParsedCommandLineOfConfigFile(
      join(ROOT, 'tsconfig.json'),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    )!
    const program = ts.createProgram([FILE], { ...config.options, noEmit: true })
    // The scratch file's diagnostics only (plus the options' and global ones): the checker still
    // resolves every type the file reaches, but does not check the bodies of the ~470 files it imports.
    const failing = new Set(
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(FILE))
        .filter((d) => d.file?.fileName === FILE)
        .map((d) => d.file!.getLineAndCharacterOfPosition(d.start!).line + 1),
    )
    const marked = SOURCE.split('\n').flatMap((line, i) => (line.includes('// error') ? [i + 1] : []))
    expect(marked.length).toBe(6)
    expect([...failing].sort((a, b) => a - b)).toEqual(marked)
  }, 180_000) // parsing the whole program, checking one file: ~40% of a whole-program check's CPU
})
