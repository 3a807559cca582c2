/** Business and platform profiles served at /.well-known/proto (spec part 1 §2.1, part 2 §2.6-2.7). */
import { Type, type Static } from '@sinclair/typebox';
import { DateString, StringEnum } from './common.js';

const Url = Type.String({ minLength: 1, maxLength: 2048 });

const ServiceEntry = Type.Object(
  {
    version: DateString,
    spec: Url,
    transport: StringEnum(['rest', 'mcp', 'a2a', 'embedded']),
    schema: Type.Optional(Url),
    endpoint: Type.Optional(Url),
    id: Type.Optional(Type.String()),
    config: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: true },
);
type ServiceEntry = Static<typeof ServiceEntry>;

const CapabilityEntry = Type.Object(
  {
    version: DateString,
    spec: Type.Optional(Url),
    schema: Type.Optional(Url),
    id: Type.Optional(Type.String()),
    config: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    extends: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
  },
  { additionalProperties: true },
);
type CapabilityEntry = Static<typeof CapabilityEntry>;

export const PaymentHandlerEntry = Type.Object(
  {
    id: Type.String(),
    version: DateString,
    available_instruments: Type.Optional(Type.Array(Type.Object({ type: Type.String() }, { additionalProperties: true }))),
    config: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: true },
);
export type PaymentHandlerEntry = Static<typeof PaymentHandlerEntry>;

const Jwk = Type.Object(
  {
    kid: Type.String(),
    kty: Type.String(),
    crv: Type.Optional(Type.String()),
    x: Type.Optional(Type.String()),
    y: Type.Optional(Type.String()),
    use: Type.Optional(Type.String()),
    alg: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);
type Jwk = Static<typeof Jwk>;

const Registry = <T extends Parameters<typeof Type.Array>[0]>(entry: T) => Type.Record(Type.String({ minLength: 1 }), Type.Array(entry));

export const Profile = Type.Object(
  {
    proto: Type.Object(
      {
        version: DateString,
        services: Registry(ServiceEntry),
        capabilities: Type.Optional(Registry(CapabilityEntry)),
        payment_handlers: Type.Optional(Registry(PaymentHandlerEntry)),
        supported_versions: Type.Optional(Type.Record(DateString, Url)),
      },
      { additionalProperties: true },
    ),
    keys: Type.Optional(Type.Array(Jwk)),
    signing_keys: Type.Optional(Type.Array(Jwk)),
  },
  { additionalProperties: true },
);
export type Profile = Static<typeof Profile>;

const PlatformKey = Type.Object({ kid: Type.Optional(Type.String()) }, { additionalProperties: true });

/**
 * What a platform profile must hold for negotiation. Platforms often publish no services
 * and no payment handlers, so only `proto.version` and well-formed registries are required.
 */
export const PlatformProfile = Type.Object(
  {
    proto: Type.Object(
      {
        version: DateString,
        services: Type.Optional(Type.Record(Type.String(), Type.Array(Type.Object({}, { additionalProperties: true })))),
        capabilities: Type.Optional(Registry(CapabilityEntry)),
      },
      { additionalProperties: true },
    ),
    // Loose on purpose: one key the verifier cannot use must not reject the profile (spec part 2 §5.1).
    keys: Type.Optional(Type.Array(PlatformKey)),
    signing_keys: Type.Optional(Type.Array(PlatformKey)),
  },
  { additionalProperties: true },
);
export type PlatformProfile = Static<typeof PlatformProfile>;
