import { relative } from 'node:path'
import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

const include = [
  'test/**/*.test.ts',
  'test/**/*.test.tsx',
  'src/**/*.test.ts',
  'src/**/*.test.tsx',
  'handlers/**/*.test.ts',
  'examples/**/*.test.ts',
]
const exclude = ['test/consumer/**', '**/node_modules/**']
/**
 * Files that set the environment before their imports so a library reads it at load (chalk's colour
 * level, supports-hyperlinks, is-in-ci): they need modules of their own. Every other file shares its
 * worker's modules (`isolate: false`): a file that starts servers or patches globals undoes it in its
 * own hooks. Measured in docs/decisions/test-isolation.md.
 */
const isolated = ['test/ui/colours.test.tsx', 'test/ui/render-ui.test.tsx']

/**
 * The files that take 10 s or more (they start Chromium, Playwright, npm or many CLI children),
 * longest first, as a fresh clone measured them. Vitest runs the files it has timings for longest
 * first; without timings (a fresh clone, CI) it runs the largest files first, and a short file
 * that drives Playwright for a minute started last and ran alone at the end. Only a hint for the
 * order: files with timings keep vitest's. docs/decisions/test-order.md
 */
const SLOW_FILES = [
  'test/persistence/data.test.ts',
  'test/playwright/fixture.test.ts',
  'test/web/inbox.test.ts',
  'test/ecosystem/package.test.ts',
  'test/ecosystem/doc-snippets.test.ts',
  'test/checks/cli.test.ts',
  'test/ecosystem/doc-shell.test.ts',
  'test/abuse/numbers.test.ts',
  'test/fuzz/wire-shapes.test.ts',
  'test/screenshots/screenshot.test.ts',
  'test/web/checks-tab.test.ts',
  'examples/playwright/reset-password.test.ts',
  'test/ecosystem/openapi.test.ts',
  'test/web/conversation-inbox.test.ts',
  'test/browser/browser-example.test.ts',
]

/** Vitest's order, with the {@link SLOW_FILES} it has no timings for moved to the front of their project. */
class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const projects = [...new Set(sorted.map((spec) => spec.project.name))]
    const rank = (spec: TestSpecification): number => {
      const path = relative(this.ctx.config.root, spec.moduleId)
      if (this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`)) return SLOW_FILES.length
      const at = SLOW_FILES.indexOf(path)
      return at === -1 ? SLOW_FILES.length : at
    }
    return sorted
      .map((spec, at) => ({ spec, at, project: projects.indexOf(spec.project.name), rank: rank(spec) }))
      .sort((a, b) => a.project - b.project || a.rank - b.rank || a.at - b.at)
      .map(({ spec }) => spec)
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: SlowFilesFirst },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Several suites start real servers and child processes: two cores, keep it calm.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'shared', include, exclude: [...exclude, ...isolated], isolate: false } },
      { extends: true, test: { name: 'isolated', include: isolated, exclude } },
    ],
  },
})
