import { X509Certificate } from 'node:crypto';

const CERTIFICATE_BLOCK = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;

/**
 * The identity provider's signing certificate as admins paste it: a PEM block (with
 * whatever `openssl x509 -text` prints around it), or its base64 body alone (the text of
 * the metadata's <X509Certificate>), on one line or many, indented, with CRLF. Returns the
 * certificate's PEM as node:crypto writes it (what node-saml is given at every login), or
 * why the text is not one certificate.
 */
export function parseCertificate(text: string): { pem: string } | { reason: string } {
  if (/PRIVATE KEY-----/.test(text)) return { reason: 'contains a private key: paste only the identity provider\'s certificate' };
  if (/^\s*</.test(text)) return { reason: 'is XML: paste the certificate itself (the text of the metadata\'s <X509Certificate> element)' };
  const blocks = [...text.matchAll(CERTIFICATE_BLOCK)].map((m) => m[1]!);
  if (blocks.length > 1) return { reason: 'must be one certificate, the one the identity provider signs with' };
  const body = (blocks[0] ?? text).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return { reason: 'must be a PEM-encoded X.509 certificate' };
  try {
    return { pem: new X509Certificate(Buffer.from(body, 'base64')).toString().trim() };
  } catch {
    return { reason: 'must be a PEM-encoded X.509 certificate' };
  }
}
