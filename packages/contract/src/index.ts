// Public surface of @till/contract. The OpenAPI builder lives at `@till/contract/openapi` so that the
// service's request path never loads it.
export * from './bridge.ts';
export * from './caip.ts';
export * from './checkout.ts';
export * from './currency.ts';
export * from './errors.ts';
export * from './headers.ts';
export { ISO4217_CURRENCIES, ISO4217_PUBLISHED } from './iso4217.data.ts';
export * from './listing.ts';
export * from './listing-query.ts';
export * from './merchant.ts';
export * from './money.ts';
export * from './payment.ts';
export * from './ready-line.ts';
export * from './redirect-url.ts';
export * from './sandbox.ts';
export * from './status.ts';
export * from './status-order.ts';
export * from './versions.ts';
