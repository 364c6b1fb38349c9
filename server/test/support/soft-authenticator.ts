import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A passkey authenticator in software, for server tests: it answers registration and sign-in
 * prompts as a browser with a platform authenticator would (ES256, attestation "none"), so the
 * server's checks run on real signatures. The browser itself is covered by the e2e test with
 * Chromium's virtual authenticator.
 */
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64 = (data: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(data));
const u32 = (n: number) => {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(n);
  return out;
};

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  counter: number;
}

interface PromptOptions {
  challenge: string;
  rp?: { id?: string };
  rpId?: string;
  allowCredentials?: { id: string }[];
}

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];

  constructor(private readonly origin: string) {}

  private get rpId() {
    return new URL(this.origin).hostname;
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string) {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** Answers `navigator.credentials.create` with a new ES256 key pair. */
  register(options: PromptOptions) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = new Map<number, Uint8Array | number>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, isoBase64URL.toBuffer(jwk.x!)],
      [-3, isoBase64URL.toBuffer(jwk.y!)],
    ]);
    const credential: Credential = { id: randomBytes(16), privateKey, counter: 0 };
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      sha256(options.rp?.id ?? this.rpId),
      Buffer.from([0x45]), // user present, user verified, attested credential data
      u32(0),
      Buffer.alloc(16), // AAGUID
      idLength,
      credential.id,
      isoCBOR.encode(cose),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, Uint8Array | string | Map<string, number>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, number>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    this.credentials.push(credential);
    return {
      id: b64(credential.id),
      rawId: b64(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64(this.clientData('webauthn.create', options.challenge)),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** Answers `navigator.credentials.get` with the first allowed credential it holds. */
  assert(options: PromptOptions, credential?: Credential) {
    const allowed = options.allowCredentials?.map((c) => c.id);
    const key = credential ?? this.credentials.find((c) => !allowed || allowed.includes(b64(c.id)));
    if (!key) throw new Error('Kein passender Passkey im Test-Authenticator');
    key.counter += 1;
    const authData = Buffer.concat([
      sha256(options.rpId ?? this.rpId),
      Buffer.from([0x05]),
      u32(key.counter),
    ]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), key.privateKey);
    return {
      id: b64(key.id),
      rawId: b64(key.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authData),
        signature: b64(signature),
      },
      clientExtensionResults: {},
    };
  }
}
