import { describe, expect, it } from 'vitest';
import { appendSignature, signatureMarker } from './signature-of';

const plain = { id: '6f9d2c1e-0000-4000-8000-000000000001', text: 'Anne Martin\nSales', html: null };
const rich = { id: '6f9d2c1e-0000-4000-8000-000000000002', text: 'Anne Martin', html: '<p><b>Anne Martin</b></p>' };

describe('appendSignature', () => {
  it('puts the text under the `-- ` delimiter, the HTML (or the escaped text) in a marked block at the end of the body', () => {
    expect(appendSignature({ bodyText: 'Hello\n\n', bodyHtml: null }, plain)).toEqual({ bodyText: 'Hello\n\n-- \nAnne Martin\nSales', bodyHtml: null });
    const both = appendSignature({ bodyText: 'Hello', bodyHtml: '<html><body><p>Hello</p></body></html>' }, rich);
    expect(both.bodyText).toBe('Hello\n\n-- \nAnne Martin');
    expect(both.bodyHtml).toBe(`<html><body><p>Hello</p><div ${signatureMarker}="${rich.id}">-- <br><p><b>Anne Martin</b></p></div></body></html>`);
    expect(appendSignature({ bodyText: null, bodyHtml: '<p>Hi</p>' }, { ...plain, text: 'A & <B>\nC' }).bodyHtml).toBe(`<p>Hi</p><div ${signatureMarker}="${plain.id}">-- <br>A &amp; &lt;B&gt;<br>C</div>`);
  });

  it('never twice: a body already signed (a retried step, an edited draft, a model that signed) is left as it is', () => {
    const once = appendSignature({ bodyText: 'Hello', bodyHtml: '<p>Hello</p>' }, rich);
    expect(appendSignature(once, rich)).toEqual(once);
    // The reviewer moved the signature above a postscript: still one.
    const edited = { bodyText: 'Hello\n\n-- \nAnne Martin\n\nPS: see you', bodyHtml: `<p>Hello</p><div ${signatureMarker}="x">edited</div><p>PS</p>` };
    expect(appendSignature(edited, rich)).toEqual(edited);
  });

  it('a message with no body gets the text signature alone', () => {
    expect(appendSignature({ bodyText: null, bodyHtml: null }, plain)).toEqual({ bodyText: '-- \nAnne Martin\nSales', bodyHtml: null });
    expect(appendSignature({ bodyText: '', bodyHtml: null }, plain).bodyText).toBe('-- \nAnne Martin\nSales');
  });
});
