import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { ROOT, shippedSources } from './sources.js'

/**
 * Issue 28: no shipped source file over 400 lines, no function over 60, except what
 * docs/decisions/size-limits.md names in its exceptions table (with the reason).
 */
const MAX_FILE_LINES = 400
const MAX_FUNCTION_LINES = 60

/** A function's name as a reader finds it: its own, the variable, property or method it is assigned to. */
function nameOf(node: ts.SignatureDeclaration): string {
  if (node.name) return node.name.getText()
  const parent = node.parent
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText()
  return '(anonymous)'
}

/** Every file over the file limit (`path`) and function over the function limit (`path:name`), with its length. */
export function oversized(file: string, text: string): Array<[string, number]> {
  const found: Array<[string, number]> = []
  const lines = text.split('\n').length
  if (lines > MAX_FILE_LINES) found.push([file, lines])
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  )
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const from = source.getLineAndCharacterOfPosition(node.getStart()).line
      const to = source.getLineAndCharacterOfPosition(node.end).line
      if (to - from + 1 > MAX_FUNCTION_LINES) found.push([`${file}:${nameOf(node)}`, to - from + 1])
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** The exceptions the decision page names: `| \`path\` or \`path:function\` | lines | why |`. */
function exceptions(): Set<string> {
  const page = readFileSync(join(ROOT, 'docs/decisions/size-limits.md'), 'utf8')
  const table = page.slice(page.indexOf('Exceptions'))
  return new Set([...table.matchAll(/^\| `([^`]+)` \| *\d+ *\| *\S.*\|$/gm)].map((match) => match[1]))
}

describe('sizes of the shipped sources', () => {
  it(`no file over ${MAX_FILE_LINES} lines and no function over ${MAX_FUNCTION_LINES}, but those docs/decisions/size-limits.md names`, () => {
    const allowed = exceptions()
    const over = shippedSources()
      .flatMap((path) => oversized(relative(ROOT, path), readFileSync(path, 'utf8')))
      .filter(([name]) => !allowed.has(name))
    expect(over).toEqual([])
    // Parses every shipped source with TypeScript: a few seconds alone, 20 s once at load 15.
  }, 60_000)

  it('finds a long file, a long function, a long arrow and a long method', () => {
    const body = Array.from({ length: 61 }, (_, i) => `  const v${i} = ${i}`).join('\n')
    const text = `function long() {\n${body}\n}\nconst arrow = () => {\n${body}\n}\nclass K {\n  method() {\n${body}\n  }\n}\n${'// filler\n'.repeat(300)}`
    expect(oversized('x.ts', text).map(([name]) => name)).toEqual(['x.ts', 'x.ts:long', 'x.ts:arrow', 'x.ts:method'])
    expect(oversized('y.ts', 'function short() {\n  return 1\n}\n')).toEqual([])
  })
})
