import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { ROOT, shippedSources } from './sources.js'

/**
 * The import graph of the shipped sources (src, bin, fixtures; tests excluded), read
 * with TypeScript's own pre-processor: static, dynamic and type-only imports all count. Two rules
 * (STYLE.md, issue 28): no import cycle, and dependencies point one way — the contract
 * (`src/contract`) and the domain never import what sits above them.
 */

/** Each source file's relative imports, resolved to files (`./x.js` → `./x.ts`, `./x.tsx`, `./x/index.ts`). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of shippedSources()) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    const targets = importedFiles
      .filter(({ fileName }) => fileName.startsWith('.'))
      .map(({ fileName }) => {
        const base = resolve(dirname(file), fileName).replace(/\.js$/, '')
        return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((candidate) => existsSync(candidate))
      })
      .filter((target): target is string => target !== undefined)
    graph.set(
      relative(ROOT, file),
      targets.map((target) => relative(ROOT, target)),
    )
  }
  return graph
}

/** Strongly connected components of more than one file (Tarjan): each is an import cycle. */
export function cyclesOf(graph: Map<string, string[]>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (node: string) => {
    index.set(node, next)
    low.set(node, next++)
    stack.push(node)
    onStack.add(node)
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target)
        low.set(node, Math.min(low.get(node)!, low.get(target)!))
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!))
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    const selfLoop = (graph.get(node) ?? []).includes(node)
    if (component.length > 1 || selfLoop) cycles.push(component.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return cycles
}

/**
 * The layers, bottom up (docs/decisions/layers.md): the contract (`src/contract`), the domain
 * (`src/domain`), its storage adapter (`src/storage`), HTTP semantics (`src/http`: the route table,
 * guards, msw handlers), the transports (`src/transports`), and at the top the UIs, the CLI and the
 * clients. Each folder must not import the ones listed (what sits above it).
 */
const TOP = ['src/ui/terminal/', 'src/ui/web/', 'src/cli/', 'src/playwright/', 'bin/']
/** The protocols the sandbox is spoken in: HTTP (the route table), MCP, and the HTTP client's interface. */
const PROTOCOLS = ['src/http/', 'src/mcp/', 'src/client/']
const BELOW: Array<[layer: string, mustNotImport: string[]]> = [
  ['src/contract/', ['src/domain/', 'src/storage/', ...PROTOCOLS, 'src/transports/', ...TOP]],
  ['src/domain/', ['src/storage/', ...PROTOCOLS, 'src/transports/', ...TOP]],
  ['src/storage/', [...PROTOCOLS, 'src/transports/', ...TOP]],
  ...PROTOCOLS.map((layer): [string, string[]] => [layer, ['src/transports/', 'src/storage/', ...TOP]]),
  ['src/transports/', TOP],
  // The web inbox runs in a browser: the contract and pure domain helpers (bundled), nothing of the server, nor the terminal UI.
  ['src/ui/web/', ['src/http/', 'src/mcp/', 'src/transports/', 'src/storage/', 'src/cli/', 'src/ui/terminal/', 'bin/']],
  // The terminal UI does not reach into the web inbox either.
  ['src/ui/terminal/', ['src/ui/web/']],
]

describe('the import graph of the sources', () => {
  const graph = importGraph()

  it('is read from the files (a sanity check on the reader)', () => {
    expect(graph.size).toBeGreaterThan(80)
    expect(graph.get('src/http/index.ts')).toContain('src/http/guard.ts')
  })

  it('has no import cycle', () => {
    expect(cyclesOf(graph)).toEqual([])
  })

  it('points one way: no layer imports one above it', () => {
    const upward: string[] = []
    for (const [file, targets] of graph) {
      for (const [layer, forbidden] of BELOW) {
        if (!file.startsWith(layer)) continue
        for (const target of targets)
          if (forbidden.some((above) => target.startsWith(above))) upward.push(`${file} → ${target}`)
      }
    }
    expect(upward).toEqual([])
  })
})

describe('cyclesOf', () => {
  it('finds a two-file cycle and a longer one, and nothing in a chain', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['a']],
      ['c', ['d']],
      ['d', ['e']],
      ['e', ['c']],
      ['f', ['g']],
      ['g', []],
    ])
    expect(cyclesOf(graph)).toEqual([
      ['a', 'b'],
      ['c', 'd', 'e'],
    ])
  })
})
