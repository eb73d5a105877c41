import { afterEach, describe, expect, it, vi } from 'vitest'
import { HTML_TOOLS_WARM_DELAY_MS, warmHtmlToolsSoon } from './serve.js'

describe('warmHtmlToolsSoon: the HTML tools load a moment after the server listens', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('not in the turn start-up ends in (a readiness poll is answered first), once after the delay', async () => {
    vi.useFakeTimers()
    const warm = vi.fn(() => Promise.resolve())
    warmHtmlToolsSoon(warm)
    // Every immediate and zero-delay timer of that turn and the next run: still not warmed.
    await vi.advanceTimersByTimeAsync(0)
    await vi.advanceTimersByTimeAsync(HTML_TOOLS_WARM_DELAY_MS - 1)
    expect(warm).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(warm).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(10 * HTML_TOOLS_WARM_DELAY_MS)
    expect(warm).toHaveBeenCalledTimes(1)
  })

  it('does not hold the process open (a CLI stopped within the delay exits)', () => {
    const timer = warmHtmlToolsSoon(() => Promise.resolve())
    expect(timer.hasRef()).toBe(false)
    clearTimeout(timer)
  })
})
