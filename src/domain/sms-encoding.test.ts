import { describe, expect, it } from 'vitest'
import { encodeSms, segmentSms } from './sms-encoding.js'

describe('encodeSms', () => {
  it('fits 160 GSM-7 characters in one segment and splits 161 into 153-septet parts', () => {
    expect(encodeSms('a'.repeat(160))).toMatchObject({ encoding: 'GSM-7', units: 160, segments: 1 })
    expect(encodeSms('a'.repeat(161))).toMatchObject({ encoding: 'GSM-7', units: 161, segments: 2 })
    expect(encodeSms('a'.repeat(306))).toMatchObject({ segments: 2 })
    expect(encodeSms('a'.repeat(307))).toMatchObject({ segments: 3 })
  })

  it('counts extension characters as two septets and never splits an escape pair', () => {
    expect(encodeSms('€'.repeat(80))).toMatchObject({ encoding: 'GSM-7', units: 160, segments: 1, characters: 80 })
    expect(encodeSms('€'.repeat(81))).toMatchObject({ units: 162, segments: 2 })
    // 152 plain septets then "{": the escape pair cannot straddle the 153 boundary.
    expect(encodeSms(`${'a'.repeat(152)}{${'a'.repeat(10)}`)).toMatchObject({ units: 164, segments: 2 })
    expect(encodeSms(`${'a'.repeat(152)}{${'a'.repeat(152)}`)).toMatchObject({ units: 306, segments: 3 })
  })

  it('switches to UCS-2 for any character outside GSM-7: 70 single, 67 per part', () => {
    expect(encodeSms('ç'.repeat(70))).toMatchObject({ encoding: 'UCS-2', units: 70, segments: 1 })
    expect(encodeSms('ç'.repeat(71))).toMatchObject({ segments: 2 })
    expect(encodeSms(`${'a'.repeat(134)}ç`)).toMatchObject({ units: 135, segments: 3 })
  })

  it('counts emoji as two UCS-2 units and never splits a surrogate pair', () => {
    expect(encodeSms('😀'.repeat(35))).toMatchObject({ encoding: 'UCS-2', units: 70, segments: 1, characters: 35 })
    expect(encodeSms(`${'a'.repeat(66)}😀`)).toMatchObject({ units: 68, segments: 1 })
    expect(encodeSms(`${'a'.repeat(66)}😀${'a'.repeat(3)}`)).toMatchObject({ units: 71, segments: 2 })
  })

  it('treats the basic set, including Greek capitals and newlines, as GSM-7', () => {
    expect(encodeSms('ΔΦΓ\nHello @ £5 ¿ü?').encoding).toBe('GSM-7')
  })

  it('gives the text of each segment, never splitting an escape pair or a surrogate pair', () => {
    expect(segmentSms('a'.repeat(161)).parts.map((p) => p.length)).toEqual([153, 8])
    expect(segmentSms(`${'a'.repeat(152)}{${'b'.repeat(10)}`).parts).toEqual(['a'.repeat(152), `{${'b'.repeat(10)}`])
    expect(segmentSms(`${'a'.repeat(66)}😀${'a'.repeat(3)}`).parts).toEqual(['a'.repeat(66), `😀aaa`])
    expect(segmentSms('').parts).toEqual([])
    expect(segmentSms('hi').parts).toEqual(['hi'])
  })
})
