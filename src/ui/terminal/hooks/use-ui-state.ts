import { useCallback, useRef, useState } from 'react'
import type { SandboxState } from '../../../domain/sandbox.js'
import { resetScopeText } from '../../../contract/reset-scopes.js'
import { INITIAL_STATE, reduce, type Action, type Effect, type KeyContext, type UiState } from '../keys.js'
import { previewUrl } from '../message-page.js'
import { runQaEffect } from '../qa-view.js'
import type { RowSourceCache } from '../page.js'
import type { UiSystem } from '../system.js'

interface Deps {
  sandbox: SandboxState
  system: UiSystem
  /** Origin of the sandbox server, for preview URLs. */
  origin: string
  onQuit: () => void
  cache: RowSourceCache
}

type Report = (action: Action) => void

/** Opens a URL in the browser, saying so, and giving the URL to open by hand when there is no browser. */
function openInBrowser(system: UiSystem, url: string, what: string, report: Report): void {
  report({ type: 'notice', notice: { text: `Opening ${what} in the browser: ${url}`, tone: 'ok' } })
  const failed = () =>
    report({ type: 'notice', notice: { text: `No browser to open here. ${what}: ${url}`, tone: 'error' } })
  system.openUrl(url).then((opened) => {
    if (!opened) failed()
  }, failed)
}

/** Runs one effect the reducer asked for; what it learns later comes back through `report`. */
function runEffect(effect: Effect, { sandbox, system, origin, cache }: Deps, report: Report, quit: () => void): void {
  switch (effect.type) {
    case 'quit':
      return quit()
    case 'clear-outbox':
      sandbox.outbox.clear()
      cache.clear()
      return
    case 'reset':
      cache.clear()
      sandbox.reset().then(
        () => report({ type: 'notice', notice: { text: `Sandbox reset: ${resetScopeText()}.`, tone: 'ok' } }),
        (error: unknown) =>
          report({ type: 'notice', notice: { text: `Reset failed: ${(error as Error).message}`, tone: 'error' } }),
      )
      return
    case 'delete-message':
      sandbox.outbox.delete(effect.id)
      return
    case 'open-preview': {
      const token = sandbox.outbox.previewToken(effect.id)
      if (token === undefined)
        return report({ type: 'notice', notice: { text: 'This message is no longer in the outbox.', tone: 'error' } })
      return openInBrowser(system, previewUrl(origin, effect.id, token), 'the email', report)
    }
    case 'check-message':
      // Computed once and kept by the sandbox (its worker thread does the heavy part); the page reads the kept report.
      sandbox.checks(effect.id).then(
        (checked) =>
          report({
            type: 'notice',
            notice: {
              text: `Checked ${checked.message_id}: score ${checked.score}/100.`,
              tone: checked.counts.error > 0 ? 'error' : 'ok',
            },
          }),
        (error: unknown) =>
          report({ type: 'notice', notice: { text: `Checks failed: ${(error as Error).message}`, tone: 'error' } }),
      )
      return
    case 'open-url':
      return openInBrowser(system, effect.url, effect.label, report)
    case 'copy':
      system.copy(effect.text)
      return
    case 'simulate-reply':
    case 'remove-opt-out':
      return runQaEffect(effect, sandbox, report)
  }
}

/**
 * The UI state, moved only by the pure reducer (`keys.ts`), and the thin part that touches the
 * world: this hook runs the effects the reducer returns (quit, clear, reset, delete, open a URL,
 * copy) and feeds what they report later (reset done, no browser) back as actions.
 */
export function useUiState(deps: Deps): { state: UiState; dispatch: (action: Action, ctx: KeyContext) => void } {
  const [state, setState] = useState(INITIAL_STATE)
  const stateRef = useRef(state)
  const depsRef = useRef(deps)
  depsRef.current = deps
  const quitting = useRef(false)
  const lastCtx = useRef<KeyContext | null>(null)
  const quit = () => {
    if (quitting.current) return
    quitting.current = true
    depsRef.current.onQuit()
  }
  /** An action reported later by an effect; it reads the latest context the keys saw. */
  const report: Report = (action) => {
    if (lastCtx.current) dispatch(action, lastCtx.current)
  }
  const dispatch = useCallback((action: Action, ctx: KeyContext) => {
    lastCtx.current = ctx
    const { state: next, effects } = reduce(stateRef.current, action, ctx)
    stateRef.current = next
    setState(next)
    for (const effect of effects) runEffect(effect, depsRef.current, report, quit)
  }, [])
  return { state, dispatch }
}
