/**
 * Connection transports with every kind of credential in them (a password, a private key, a user
 * and a key in the URL, an auth header): for tests of what is sealed at rest and what a device
 * receives.
 */
export const SFTP_WITH_SECRETS = {
  type: 'sftp',
  host: 'sftp.partner.example',
  port: 22,
  username: 'reno',
  password: 'sftp-password',
  privateKey: '-----BEGIN OPENSSH PRIVATE KEY-----',
  directory: 'in',
  host_key_sha256: `SHA256:${'A'.repeat(43)}`,
};

export const HTTP_WITH_SECRETS = {
  type: 'http',
  url: 'https://user:pw@api.partner.example/feed?api_key=k1&store=7',
  headers: { Authorization: 'Bearer token' },
};
