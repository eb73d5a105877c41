/**
 * The captures of the three send endpoints, as the send routes call them. Each channel's logic
 * lives in its descriptor (src/domain/channels/): these names stay for the handlers.
 */
import { emailChannel, smsChannel, whatsappChannel } from './channels/index.js'

export type { Sender } from './channels/index.js'

/** The capture of an accepted email: text, links and codes computed here, once. */
export const emailCapture = emailChannel.capture
/** The capture of an accepted SMS, with its encoding and segment count. */
export const smsCapture = smsChannel.capture
/** The capture of an accepted WhatsApp template message, with a one-line preview. */
export const whatsappCapture = whatsappChannel.capture
