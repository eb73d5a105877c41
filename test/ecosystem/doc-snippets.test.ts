import { execFile } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCli, type CliChild } from '../cli-child.js'
import { allBlocks, ROOT, where } from './doc-blocks.js'

/**
 * Every TypeScript and JavaScript block of the README and of docs/*.md pastes and runs (issue 23
 * item 6, issue 33 item 2). A block is one of, by the `<!-- snippet: KIND … -->` comment on the
 * line before it (none: `module`; `<!-- not run: REASON -->` leaves it out, saying why):
 * - `module`: a whole file. Type-checked, then run (the JavaScript tsc wrote for it, with `node`:
 *   the type-check's own output, not a second compile by a loader per block); it must exit 0.
 * - `server`: a whole file that talks to a running sendbox: run with one started on a free port,
 *   its URL replacing `http://127.0.0.1:4010` in the text, and `SENDBOX_URL` set to it.
 * - `vitest`: a whole vitest test file. Type-checked, then run by vitest; its tests must pass.
 * - `browser`: a whole file for a page (msw/browser). Type-checked with the DOM library only.
 * - `fragment NAME…`: lines from the middle of a test. Type-checked with each NAME declared as
 *   below (`sandbox`, `page`, `signal`, `expect`, `client`), nothing else.
 * The files are written under `.readme-snippets/` in the repository, so `sendbox` resolves to the
 * built package (package.json `exports`, self-reference) and every dependency from node_modules.
 * One tsc run type-checks every TypeScript block and writes its JavaScript to `.readme-snippets/js/`.
 */
const DIR = join(ROOT, '.readme-snippets')
const OUT = join(DIR, 'js')
const run = promisify(execFile)

const DECLARATIONS: Record<string, string> = {
  sandbox: "declare const sandbox: import('sendbox').Sandbox",
  page: "declare const page: import('playwright-core').Page",
  signal: 'declare const signal: AbortSignal',
  expect: "import { expect } from 'vitest'",
  client: "declare const client: import('sendbox/client').SandboxClient",
}

interface Snippet {
  where: string
  kind: 'module' | 'server' | 'vitest' | 'browser' | 'fragment'
  names: string[]
  code: string
  file: string
}

function snippets(): Snippet[] {
  return allBlocks()
    .filter((block) => ['ts', 'js', 'mjs'].includes(block.lang) && block.notRun === undefined)
    .map((block) => {
      const kind = (block.kind ?? 'module') as Snippet['kind']
      const ext = block.lang === 'ts' ? (kind === 'vitest' ? 'test.ts' : 'ts') : 'mjs'
      const file = `${block.page.replace(/\.md$/, '').replace(/\W/g, '_')}-line-${block.line}-${kind}.${ext}`
      return { where: where(block), kind, names: block.args, code: block.code, file }
    })
}

const all = snippets()
let cli: CliChild | undefined

let compiled: Promise<string> | undefined
/**
 * tsc over every TypeScript block, once (the type-check test and the run test share it): its
 * diagnostics ('' when none), naming the page and line instead of the scratch file. The
 * JavaScript it writes (ES modules: the repository's package.json says `"type": "module"`) is
 * what the run test runs.
 */
function compile(): Promise<string> {
  compiled ??= (async () => {
    const files = all.filter((s) => s.file.endsWith('.ts')).map((s) => s.file)
    const config = {
      compilerOptions: {
        strict: true,
        rootDir: '.',
        outDir: 'js',
        target: 'es2022',
        module: 'nodenext',
        lib: ['es2023', 'dom', 'dom.iterable'],
        types: ['node'],
        skipLibCheck: true,
        allowImportingTsExtensions: false,
      },
      files,
    }
    writeFileSync(join(DIR, 'tsconfig.json'), JSON.stringify(config))
    const result = await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', DIR], {
      cwd: ROOT,
    }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    )
    return all.reduce((text, snippet) => text.replaceAll(snippet.file, `${snippet.where} (block)`), result)
  })()
  return compiled
}

/** The file `node` runs for a whole-file block: tsc's output for TypeScript, the block itself for JavaScript. */
const runnable = (snippet: Snippet) =>
  snippet.file.endsWith('.ts') ? join(OUT, snippet.file.replace(/\.ts$/, '.js')) : join(DIR, snippet.file)

beforeAll(() => {
  rmSync(DIR, { recursive: true, force: true })
  mkdirSync(DIR, { recursive: true })
  for (const snippet of all) {
    const preamble = snippet.names.map((name) => DECLARATIONS[name] ?? `unknown name ${name} (${snippet.where})`)
    const body =
      snippet.kind === 'fragment'
        ? `${preamble.join('\n')}\nexport {}\n${snippet.code}\n`
        : `${snippet.code}\n${/^(import|export) /m.test(snippet.code) ? '' : 'export {}\n'}`
    writeFileSync(join(DIR, snippet.file), body)
  }
})

afterAll(async () => {
  cli?.kill()
  rmSync(DIR, { recursive: true, force: true })
})

describe('docs snippets (README.md and docs/*.md)', () => {
  it('has the blocks this test knows how to check, each marked with a known kind', () => {
    expect(all.length).toBeGreaterThanOrEqual(6)
    for (const snippet of all) {
      expect(['module', 'server', 'vitest', 'browser', 'fragment'], snippet.where).toContain(snippet.kind)
      for (const name of snippet.names) expect(Object.keys(DECLARATIONS), snippet.where).toContain(name)
    }
  })

  it('type-checks every TypeScript block as written (fragments with only their declared names)', async () => {
    expect(await compile()).toBe('')
  }, 120_000)

  it('runs every whole-file block: it exits 0', async () => {
    await compile() // its diagnostics are the test above's; a block that does not compile fails here at its run
    for (const snippet of all.filter((s) => s.kind === 'module' || s.kind === 'server')) {
      const env: Record<string, string | undefined> = { ...process.env, SENDBOX_API_KEYS: '', SENDBOX_CONFIG: '' }
      if (snippet.kind === 'server') {
        cli ??= await startCli(['--no-ui', '--port', '0'])
        const file = runnable(snippet)
        writeFileSync(file, readFileSync(file, 'utf8').replaceAll('http://127.0.0.1:4010', cli.origin))
        env.SENDBOX_URL = cli.origin
      }
      const outcome = await run(process.execPath, [runnable(snippet)], {
        cwd: ROOT,
        env,
        timeout: 60_000,
      }).then(
        () => 'exit 0',
        (error: { code?: number; stderr?: string }) =>
          `exit ${error.code}: ${error.stderr?.split('\n').slice(0, 8).join('\n')}`,
      )
      expect(outcome, snippet.where).toBe('exit 0')
    }
  }, 180_000)

  it('runs every vitest block: its tests pass', async () => {
    const files = all.filter((s) => s.kind === 'vitest').map((s) => s.file)
    expect(files.length).toBeGreaterThan(0)
    writeFileSync(join(DIR, 'vitest.config.mjs'), `export default { test: { include: ${JSON.stringify(files)} } }\n`)
    const { stdout } = await run(
      process.execPath,
      [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--root', DIR, '--config', join(DIR, 'vitest.config.mjs')],
      { cwd: ROOT, env: { ...process.env, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0' } },
    ).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: `${error.stdout}\n${error.stderr}` }))
    expect(stdout).toMatch(new RegExp(`Test Files\\s+\\S*${files.length} passed`))
  }, 120_000)
})
