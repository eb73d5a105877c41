import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CHANNELS, type Channel } from '../../src/contract/constants.js'
import { CHANNEL_LABELS } from '../../src/domain/channels/readings.js'
import { ROOT, shippedSources } from './sources.js'

/**
 * The places a new channel touches that the compiler cannot see (issue 34, item 2): prose that
 * lists the channels (OpenAPI and MCP descriptions, help, comments) and the package's public
 * types. Each test fails naming the place and the fix; a `Record<Channel, …>` names the rest.
 */

/** Words that name a channel in prose: its id and its label (`whatsapp`, `WhatsApp`; `emails` too). */
const NAMES: Record<Channel, RegExp> = Object.fromEntries(
  CHANNELS.map((channel) => {
    const words = [...new Set([channel, CHANNEL_LABELS[channel]].map((w) => w.toLowerCase()))]
    return [channel, new RegExp(`\\b(?:${words.join('|')})s?\\b`, 'i')]
  }),
) as Record<Channel, RegExp>

/** A channel's own files: its domain folder and its view in each UI, which name their channel alone. */
const OWN = new RegExp(`^src/(?:domain/channels|ui/terminal/channels|ui/web/app/channels)/(?:${CHANNELS.join('|')})\\b`)

describe('places a new channel touches that no type names', () => {
  it('a line that lists three channels or more lists them all (else a new channel is missing from it)', () => {
    const partial: string[] = []
    for (const file of shippedSources()) {
      const path = relative(ROOT, file)
      if (OWN.test(path)) continue
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const named = CHANNELS.filter((channel) => NAMES[channel].test(line))
          if (named.length >= 3 && named.length < CHANNELS.length) {
            const missing = CHANNELS.filter((channel) => !named.includes(channel))
            partial.push(
              `${path}:${i + 1} names ${named.join(', ')} but not ${missing.join(', ')}: say what it means for ${missing.join(', ')}, or derive the list from CHANNELS / CHANNEL_LABELS`,
            )
          }
        })
    }
    expect(partial).toEqual([])
  })

  it("exports every channel's message type from the package (`<Channel>Message`, as src/contract/captured-message.ts names it)", () => {
    const entry = readFileSync(`${ROOT}/src/index.ts`, 'utf8')
    const contract = readFileSync(`${ROOT}/src/contract/captured-message.ts`, 'utf8')
    const missing = CHANNELS.map((channel) => `${channel[0].toUpperCase()}${channel.slice(1)}Message`).filter(
      (type) => !new RegExp(`export type ${type}\\b`).test(contract) || !new RegExp(`\\b${type}\\b`).test(entry),
    )
    expect(
      missing,
      'add `export type <Channel>Message = z.infer<typeof <channel>MessageSchema>` to src/contract/captured-message.ts and the name to the type exports of src/index.ts',
    ).toEqual([])
  })
})
