import { request } from '../helpers/http';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

/** A real upload through POST /Integration/Documents; returns the stored document. Without `privacy` the service's default (Private) applies. */
export async function uploadDocument(
  key: string,
  documentId: string,
  title = 'Catch certificate',
  privacy?: 'Public' | 'Private',
): Promise<{ documentId: string }> {
  const body = new FormData();
  body.append('file', new Blob([PDF]), 'certificate.pdf');
  const response = await request('POST', '/Integration/Documents', {
    key,
    body,
    headers: {
      'X-Document-Title': title,
      'X-Document-Type': 'Certification',
      'X-Document-Id': documentId,
      ...(privacy ? { 'X-Document-Privacy': privacy } : {}),
    },
  });
  if (response.status !== 200) throw new Error(`upload failed: ${response.status} ${response.text}`);
  return response.body.documents[0];
}
