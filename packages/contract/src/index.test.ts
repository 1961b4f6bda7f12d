import { describe, expect, it } from 'vitest';
import * as contract from './index.ts';

// The service imports these names; renaming one must fail here before it fails there.
const NAMES = [
  'ISO4217_CURRENCIES', 'currencyByCode', 'FIAT_UNIT_PATTERN', 'parseFiatUnit', 'fiatUnit', 'formatMinorUnits',
  'MinorUnits', 'PositiveMinorUnits', 'FiatUnit', 'AmountDisplay', 'FiatAmount', 'TokenAmount', 'Amount', 'CreatePaymentAmount', 'fiatDisplay', 'fiatAmount',
  'Caip2', 'Caip10', 'Caip19', 'TokenUnit',
  'API_VERSIONS', 'ApiVersion', 'DEFAULT_API_VERSION', 'parseApiVersion', 'compareApiVersions',
  'API_KEY_HEADER', 'MERCHANT_ID_HEADER', 'API_VERSION_HEADER', 'APP_ID_HEADER', 'CLIENT_ID_HEADER', 'IDEMPOTENCY_KEY_HEADER',
  'ERROR_CODES', 'ErrorCodeSchema', 'ErrorIssue', 'ErrorBody', 'toErrorIssues',
  'MerchantPaymentStatus', 'FINAL_STATUSES', 'isFinalStatus', 'ListingPaymentStatus', 'toListingStatus', 'isTerminalListingStatus',
  'MAX_REDIRECT_URL_LENGTH', 'normalizeRedirectUrl', 'appendPaymentId',
  'CheckoutConfig', 'ReferenceId', 'CreatePaymentRequest', 'CreatePaymentResponse', 'MerchantPaymentStatusResponse', 'PaymentStatusResponse', 'PaymentIdParam',
  'MerchantSummary', 'Buyer', 'Transaction', 'Fees', 'Settlement', 'Payment', 'RevenueTotal', 'PaymentListStats', 'PaymentListResponse', 'PaymentListQuery',
  'MerchantStatus', 'CreateMerchantRequest', 'UpdateMerchantRequest', 'Merchant', 'MerchantResponse', 'LOGO_RULES',
  'BridgeMessage', 'interpretBridgeMessage', 'bridgeMessage', 'WEBVIEW_QUERY',
  'SimulateOutcome', 'SimulatePaymentRequest',
  'SandboxCredentials', 'TillReadyLine', 'SandboxReadyLine',
];

describe('@till/contract', () => {
  it.each(NAMES)('exports %s', (name) => {
    expect((contract as Record<string, unknown>)[name]).toBeDefined();
  });

  it('keeps the OpenAPI builder out of the main entry', () => {
    expect((contract as Record<string, unknown>).createOpenApiDocument).toBeUndefined();
  });
});
