import { escapeHtml, payPage, returnHost, withCheckoutId } from './checkout-page.html';

describe('hosted checkout HTML helpers', () => {
  it('escapes text and attribute values', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&\`</a>`)).toBe(
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&#96;&lt;/a&gt;',
    );
    expect(escapeHtml(null)).toBe('');
    expect(escapeHtml(42)).toBe('42');
  });

  it('adds checkout_id to the query, keeping the other parameters and the fragment', () => {
    expect(withCheckoutId('https://s.example/p', 'chk_1')).toBe('https://s.example/p?checkout_id=chk_1');
    expect(withCheckoutId('https://s.example/p?', 'chk_1')).toBe('https://s.example/p?checkout_id=chk_1');
    expect(withCheckoutId('https://s.example/p?a=1&b=x%20y#f', 'chk_1')).toBe(
      'https://s.example/p?a=1&b=x%20y&checkout_id=chk_1#f',
    );
    expect(withCheckoutId('https://s.example/p?checkout_id=old&a=1', 'chk_1')).toBe(
      'https://s.example/p?checkout_id=chk_1&a=1',
    );
  });

  it('shows the return host', () => {
    expect(returnHost('https://shop.example:8443/x')).toBe('shop.example:8443');
    expect(returnHost('not a url')).toBe('');
  });

  it('renders a page without scripts or external assets', () => {
    const html = payPage({
      checkoutId: 'chk_1',
      packageName: '<b>',
      sms: 1000,
      amount: 5000,
      currency: 'GHS',
      returnHost: 'shop.example',
      environment: 'TEST',
    });
    expect(html).toContain('&lt;b&gt;');
    expect(html).not.toMatch(/<script|https?:\/\//);
    expect(html).toContain('action="/checkout/chk_1/pay"');
  });
});
