/**
 * The browser's copy of the template rules: bundled by scripts/build-browser.js into
 * src/console/assets/template-preview.js, so the Templates page's live preview renders with the
 * very code campaigns render with, and counts with the send's own cost rules. console.js wires
 * it to the page.
 */
import { parseTemplate, renderTemplate, type TemplateContact } from '../../audiences/domain/template';
import { describeCost, messageCost } from '../../messaging/domain/message-cost';

export interface TemplatePreview {
  readonly text: string;
  readonly missing: readonly string[];
  /** Why the message is not a valid template (nothing typed yet is not an error). */
  readonly error: string | null;
  readonly cost: ReturnType<typeof messageCost>;
  readonly costText: string;
}

export function previewTemplate(message: string, contact: TemplateContact): TemplatePreview {
  const parsed = parseTemplate(message);
  const rendered = parsed.ok ? renderTemplate(parsed.value, contact) : { text: '', missing: [] };
  const cost = messageCost(rendered.text);
  return {
    ...rendered,
    error: parsed.ok || message.trim() === '' ? null : parsed.error.message,
    cost,
    costText: describeCost(cost),
  };
}

(globalThis as unknown as Record<string, unknown>).smsTemplatePreview = { previewTemplate };
