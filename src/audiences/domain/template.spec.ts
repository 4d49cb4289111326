import { isPlainText, parseTemplate, placeholdersOf, renderTemplate, TemplateContact } from './template';

const contact: TemplateContact = {
  phoneNumber: '+233241234567',
  name: 'Ama Mensah',
  fields: { first_name: 'Ama', class: 'JSS 2', empty: '' },
};

const parsed = (text: string) => {
  const result = parseTemplate(text);
  if (!result.ok) throw result.error;
  return result.value;
};

describe('templates', () => {
  it('reads placeholders with and without fallbacks, and names each once in order', () => {
    const t = parsed(
      'Dear {{first_name|Parent}}, {{ class }} resumes. {{first_name}} {{phone_number}} {{name}}',
    );
    expect(placeholdersOf(t)).toEqual(['first_name', 'class', 'phone_number', 'name']);
    expect(isPlainText(t)).toBe(false);
    expect(isPlainText(parsed('No placeholders here.'))).toBe(true);
  });

  it('renders a contact: its name, number and fields, a fallback for what it lacks', () => {
    const t = parsed(
      'Dear {{first_name|Parent}}, {{class}} resumes ({{name}}, {{phone_number}}). {{nickname|}}!',
    );
    expect(renderTemplate(t, contact)).toEqual({
      text: 'Dear Ama, JSS 2 resumes (Ama Mensah, +233241234567). !',
      missing: [],
    });
    expect(renderTemplate(t, { phoneNumber: '+233200000001', name: null, fields: {} })).toEqual({
      text: 'Dear Parent,  resumes (, +233200000001). !',
      missing: ['class', 'name'],
    });
  });

  it('counts an empty field as missing, once however often it is used', () => {
    const t = parsed('{{empty}} and {{empty}} and {{empty|fallback}}');
    expect(renderTemplate(t, contact)).toEqual({ text: ' and  and fallback', missing: ['empty'] });
  });

  it.each([
    ['Dear {name}', 'a single "{" at character 6'],
    ['Dear }} you', 'a "}" at character 6 closes nothing'],
    ['Dear {{name', 'the "{{" at character 6 is never closed'],
    ['Hi {{First Name}}', '"{{First Name}}" is not a placeholder'],
    ['Hi {{}}', '"{{}}" is not a placeholder'],
    ['Hi {{a-b}}', '"{{a-b}}" is not a placeholder'],
    ['Hi {{name|{x}}}', '"{{name|{x}}" is not a placeholder'],
    ['{{x}} {', 'a single "{" at character 7'],
  ])('refuses %j as invalid_template (%s)', (text, why) => {
    const result = parseTemplate(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: 'invalid_template', param: 'message' });
    expect(result.error.message).toContain(why);
  });

  it('refuses an empty or overlong message with their own codes', () => {
    expect(parseTemplate('  ')).toMatchObject({ ok: false, error: { code: 'invalid_message' } });
    expect(parseTemplate('x'.repeat(1601))).toMatchObject({ ok: false, error: { code: 'message_too_long' } });
    expect(parseTemplate('x'.repeat(1600)).ok).toBe(true);
  });
});
