import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { parseTemplate, renderTemplate } from '../../audiences/domain/template';
import { messageCost } from '../../messaging/domain/message-cost';
import { previewTemplate } from './template-preview.browser';

describe('the console browser bundle of the template rules', () => {
  const sandbox: Record<string, unknown> = {};
  sandbox.globalThis = sandbox;
  runInNewContext(readFileSync(join(__dirname, '..', 'assets', 'template-preview.js'), 'utf8'), sandbox);
  const browser = sandbox.smsTemplatePreview as { previewTemplate: typeof previewTemplate };
  const contact = { phoneNumber: '+233241234567', name: 'Ama', fields: { class: 'JSS 2' } };

  it('renders and counts what the server renders and counts', () => {
    for (const message of [
      'Dear {{name|Parent}}, {{class}} resumes.',
      'Hi {{house}} 😀',
      'x'.repeat(200) + '{{class}}',
    ]) {
      const parsed = parseTemplate(message);
      if (!parsed.ok) throw parsed.error;
      const rendered = renderTemplate(parsed.value, contact);
      expect(browser.previewTemplate(message, contact)).toEqual({
        ...rendered,
        error: null,
        cost: messageCost(rendered.text),
        costText: expect.any(String),
      });
    }
  });

  it('says why a template is refused, and nothing for an empty one', () => {
    expect(browser.previewTemplate('Dear {name}', contact).error).toContain('a single "{"');
    expect(browser.previewTemplate('', contact).error).toBeNull();
  });
});
