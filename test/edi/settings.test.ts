/** A connection's `order_documents` seed setting (src/shared/order-documents.ts) in the seed bundle. */
import { describe, expect, it } from 'vitest';
import { orderDocumentSettingsOf } from '../../src/server/edi/settings';
import { connectionSchema } from '../../src/shared/seed';
import { baseBundle, id } from '../helpers/fixtures';

const connection = (orderDocuments: unknown) => ({
  ...baseBundle().connections.find((c) => c.id === id('c', 1))!,
  order_documents: orderDocuments,
});

describe('order_documents settings', () => {
  it('takes the DESIGN.md shape with defaults', () => {
    const parsed = connectionSchema.parse(connection({ send: ['856', '855'] }));
    expect(parsed.order_documents).toEqual({
      send: ['856', '855'],
      auto_acknowledge: false,
      auto_invoice: false,
      ack_hours: 24,
    });
    expect(connectionSchema.parse(connection(undefined)).order_documents).toBeUndefined();
  });

  it('refuses unknown document types, keys and a non-positive ack_hours', () => {
    for (const bad of [{ send: ['846'] }, { send: [], colour: 'red' }, { ack_hours: 0 }]) {
      expect(connectionSchema.safeParse(connection(bad)).success, JSON.stringify(bad)).toBe(false);
    }
    expect(connectionSchema.safeParse(connection({ ack_hours: 0.5 })).success).toBe(true);
  });

  it('a stored setting that no longer reads sends nothing', () => {
    expect(orderDocumentSettingsOf('{"send":["999"]}')).toBeNull();
    expect(orderDocumentSettingsOf('not json')).toBeNull();
    expect(orderDocumentSettingsOf(null)).toBeNull();
    expect(orderDocumentSettingsOf('{"send":["856"]}')?.send).toEqual(['856']);
  });

  it('an SFTP inbound directory needs a host key and exactly one credential, with clear messages', () => {
    const sftp = {
      type: 'sftp',
      host: 'sftp.retailer.example',
      username: 'acme',
      password: 'pw',
      directory: '/outbox',
      host_key_sha256: `SHA256:${'A'.repeat(43)}`,
    };
    const parsed = connectionSchema.parse(connection({ inbound: sftp }));
    expect(parsed.order_documents?.inbound).toEqual({ ...sftp, port: 22 });
    const messages = (inbound: unknown) => {
      const result = connectionSchema.safeParse(connection({ inbound }));
      expect(result.success, JSON.stringify(inbound)).toBe(false);
      return result.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n');
    };
    const { host_key_sha256: _key, ...noKey } = sftp;
    expect(messages(noKey)).toContain('order_documents.inbound.host_key_sha256: required');
    expect(messages({ ...sftp, host_key_sha256: 'abc' })).toContain('SHA-256 fingerprint');
    const { password: _pw, ...noCredential } = sftp;
    expect(messages(noCredential)).toContain('needs a password or a privateKey');
    expect(messages({ ...sftp, privateKey: 'KEY' })).toContain('not both');
    expect(messages({ ...sftp, host: ' ' })).toContain('must name the SFTP server');
    expect(messages({ ...sftp, port: 70000 })).toContain('order_documents.inbound.port');
    expect(messages({ ...sftp, directory: '' })).toContain('must name the remote directory');
    expect(messages({ ...sftp, colour: 'red' })).toContain('colour');
  });
});
