import { describe, expect, it } from 'vitest';
import {
  assertTrustedIpcSender,
  CONTENT_SECURITY_POLICY,
  externalUrlToOpen,
  httpOriginOf,
  isAllowedNavigation,
  isSameOrigin,
  isTrustedIpcSender,
  windowUrlFor,
  withContentSecurityPolicy,
} from '../../src/main/security';

const origin = 'http://127.0.0.1:41234';

describe('httpOriginOf', () => {
  it('gives the origin of http(s) URLs only', () => {
    expect(httpOriginOf('http://127.0.0.1:41234/orders?x=1#y')).toBe(origin);
    expect(httpOriginOf('https://example.com/a')).toBe('https://example.com');
    expect(httpOriginOf('file:///etc/passwd')).toBeNull();
    expect(httpOriginOf('javascript:alert(1)')).toBeNull();
    expect(httpOriginOf('not a url')).toBeNull();
    expect(httpOriginOf('')).toBeNull();
    expect(httpOriginOf(null)).toBeNull();
    expect(httpOriginOf(undefined)).toBeNull();
  });
});

describe('navigation allow-list', () => {
  it('allows pages of the service origin', () => {
    expect(isAllowedNavigation(`${origin}/`, origin)).toBe(true);
    expect(isAllowedNavigation(`${origin}/orders/42?tab=pallets#top`, origin)).toBe(true);
    expect(isAllowedNavigation(`${origin}`, `${origin}/`)).toBe(true);
  });

  it('rejects other origins', () => {
    expect(isAllowedNavigation('https://evil.example/', origin)).toBe(false);
    expect(isAllowedNavigation('http://localhost:41234/', origin)).toBe(false);
    expect(isAllowedNavigation('http://127.0.0.2:41234/', origin)).toBe(false);
    expect(isAllowedNavigation('https://127.0.0.1:41234/', origin)).toBe(false);
    expect(isAllowedNavigation('http://127.0.0.1.evil.example:41234/', origin)).toBe(false);
    expect(isAllowedNavigation('http://user@evil.example:41234/', origin)).toBe(false);
    expect(isAllowedNavigation('http://127.0.0.1:41234@evil.example/', origin)).toBe(false);
  });

  it('rejects a different port of the same host', () => {
    expect(isAllowedNavigation('http://127.0.0.1:41235/', origin)).toBe(false);
    expect(isAllowedNavigation('http://127.0.0.1/', origin)).toBe(false);
  });

  it('rejects non-http schemes', () => {
    expect(isAllowedNavigation('file:///C:/Windows/System32/calc.exe', origin)).toBe(false);
    expect(isAllowedNavigation('file:///etc/passwd', origin)).toBe(false);
    expect(isAllowedNavigation('javascript:alert(document.domain)', origin)).toBe(false);
    expect(isAllowedNavigation('data:text/html,<script>alert(1)</script>', origin)).toBe(false);
    expect(isAllowedNavigation('about:blank', origin)).toBe(false);
    expect(isAllowedNavigation('devtools://devtools/bundled/inspector.html', origin)).toBe(false);
    expect(isAllowedNavigation('ms-msdt:/id PCWDiagnostic', origin)).toBe(false);
  });

  it('rejects everything when the service origin is not an http origin', () => {
    expect(isSameOrigin(`${origin}/`, '')).toBe(false);
    expect(isSameOrigin('file:///x', 'file:///x')).toBe(false);
    expect(isAllowedNavigation('garbage', origin)).toBe(false);
  });
});

describe('external links', () => {
  it('hands only https links to the OS browser', () => {
    expect(externalUrlToOpen('https://example.com/help')).toBe('https://example.com/help');
    expect(externalUrlToOpen('http://example.com/')).toBeNull();
    expect(externalUrlToOpen('file:///etc/passwd')).toBeNull();
    expect(externalUrlToOpen('smb://host/share')).toBeNull();
    expect(externalUrlToOpen('javascript:alert(1)')).toBeNull();
    expect(externalUrlToOpen('https://user:pass@example.com/')).toBeNull();
    expect(externalUrlToOpen('not a url')).toBeNull();
  });
});

describe('IPC sender check', () => {
  it('trusts frames showing the service origin only', () => {
    expect(isTrustedIpcSender(`${origin}/settings`, origin)).toBe(true);
    expect(isTrustedIpcSender('https://evil.example/', origin)).toBe(false);
    expect(isTrustedIpcSender('http://127.0.0.1:1/', origin)).toBe(false);
    expect(isTrustedIpcSender('file:///app/index.html', origin)).toBe(false);
    expect(isTrustedIpcSender('about:blank', origin)).toBe(false);
    expect(isTrustedIpcSender(null, origin)).toBe(false);
    expect(isTrustedIpcSender(undefined, origin)).toBe(false);
    expect(isTrustedIpcSender(`${origin}/`, '')).toBe(false);
  });

  it('throws for untrusted senders', () => {
    expect(() => assertTrustedIpcSender('app:info', `${origin}/`, origin)).not.toThrow();
    expect(() => assertTrustedIpcSender('app:info', 'https://evil.example/', origin)).toThrow(
      /app:info/,
    );
    expect(() => assertTrustedIpcSender('app:info', null, origin)).toThrow();
  });
});

describe('Content-Security-Policy', () => {
  const directives = new Map(
    CONTENT_SECURITY_POLICY.split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name, values.join(' ')] as const;
    }),
  );

  it('contains the directives', () => {
    expect(directives.get('default-src')).toBe("'self'");
    expect(directives.get('script-src')).toBe("'self'");
    expect(directives.get('style-src')).toBe("'self' 'unsafe-inline'");
    expect(directives.get('img-src')).toBe("'self' data:");
    expect(directives.get('connect-src')).toBe("'self'");
    expect(directives.get('object-src')).toBe("'none'");
    expect(directives.get('base-uri')).toBe("'none'");
    expect(directives.get('frame-ancestors')).toBe("'none'");
  });

  it('never allows inline or eval scripts', () => {
    expect(directives.get('script-src')).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
  });

  it('replaces any CSP of service responses, in any header spelling', () => {
    const headers = withContentSecurityPolicy(
      `${origin}/index.html`,
      {
        'content-type': ['text/html'],
        'content-security-policy': ["default-src *; script-src * 'unsafe-eval'"],
        'Content-Security-Policy': ['default-src *'],
      },
      origin,
    );
    expect(headers).toEqual({
      'content-type': ['text/html'],
      'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
    });
  });

  it('adds the CSP when the response has no headers', () => {
    expect(withContentSecurityPolicy(`${origin}/`, undefined, origin)).toEqual({
      'Content-Security-Policy': [CONTENT_SECURITY_POLICY],
    });
  });

  it('leaves responses of other origins alone', () => {
    const headers = { 'content-type': ['text/html'] };
    expect(withContentSecurityPolicy('https://example.com/', headers, origin)).toBe(headers);
    expect(withContentSecurityPolicy('http://127.0.0.1:1/', headers, origin)).toBe(headers);
  });
});

describe('windowUrlFor', () => {
  it('loads the service through loopback', () => {
    expect(windowUrlFor('http://127.0.0.1:41234')).toBe('http://127.0.0.1:41234/');
    expect(windowUrlFor('http://0.0.0.0:8787')).toBe('http://127.0.0.1:8787/');
    expect(windowUrlFor('http://[::]:8787')).toBe('http://[::1]:8787/');
    expect(windowUrlFor('http://[::1]:8787')).toBe('http://[::1]:8787/');
  });
});
