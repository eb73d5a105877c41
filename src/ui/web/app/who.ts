/** Who the page is signed in as (`GET /__sandbox/whoami`): the admin, or a team token and its accounts. */
import { useEffect, useState } from 'preact/hooks'
import type { z } from 'zod'
import type { whoamiSchema } from '../../../contract/controls.js'
import { call } from './api.js'

/** What `GET /__sandbox/whoami` answers: the contract's schema, not a copy of it. */
export type Whoami = z.infer<typeof whoamiSchema>

let asked: Promise<Whoami | null> | undefined

/** Asks once per page (the token changes only with a reload); a failed ask is asked again next time. */
function whoami(): Promise<Whoami | null> {
  asked ??= call<Whoami>('GET', '/__sandbox/whoami').catch(() => {
    asked = undefined
    return null
  })
  return asked
}

/** The signed-in viewer once known (`when` false: not yet asked, e.g. while the page is not live). */
export function useWhoami(when = true): Whoami | null {
  const [who, setWho] = useState<Whoami | null>(null)
  useEffect(() => {
    if (!when) return
    let current = true
    void whoami().then((answer) => {
      if (current) setWho(answer)
    })
    return () => {
      current = false
    }
  }, [when])
  return who
}
