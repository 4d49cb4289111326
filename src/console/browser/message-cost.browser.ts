/**
 * The browser's copy of the send's cost rules: bundled by scripts/build-browser.js into
 * src/console/assets/message-cost.js, so the counter on the send forms runs the very code the
 * send and the quote count with (one implementation). console.js wires it to the forms.
 */
import { describeCost, messageCost } from '../../messaging/domain/message-cost';

(globalThis as unknown as Record<string, unknown>).smsMessageCost = { messageCost, describeCost };
