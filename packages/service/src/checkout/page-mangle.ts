// The property names page-build.ts has esbuild shorten like local names: names private to the page's script,
// which nothing outside its bundle reads. esbuild renames every property of such a name in the bundle, so
// none may be a name of the service's data (@till/contract), of lit-html or of the browser, and none may
// be looked up by a computed key (`t.errors[kind]`): page-mangle.test.ts checks the first two. Leaving a name
// out only costs bytes.

/** The keys of the page's words (strings.ts, and the lazy chunks' own), each read as `t.key`. */
const WORDS = [
  'sandboxNote',
  'devWalletOutcome',
  'expiresIn',
  'expiring',
  'connectHeading',
  'connectIntro',
  'noWallets',
  'walletOutcome',
  'noBrowserWallet',
  'connectingHeading',
  'connectingBody',
  'chooseHeading',
  'connectedAs',
  'optionsLoading',
  'optionsLegend',
  'onNetwork',
  'payButton',
  'phoneButton',
  'signingHeading',
  'signingBody',
  'processingHeading',
  'finalHeading',
  'returningIn',
  'expireNowHint',
  'processingBody',
  'paidWith',
  'payingWith',
  'amountLabel',
  'finalBody',
  'genericNext',
  'returningNow',
  'redirectProgress',
  'returnNow',
  'switchingHeading',
  'switchingBody',
  'submittedHeading',
  'submittedBody',
  'stalledHeading',
  'stalledBody',
  'checkAgain',
  'backToOptions',
  'walletBusy',
  'walletFailed',
  'alreadyUsed',
]

/** Members of the page's own objects: its model, actions, controller's dependencies, gateway and the kit it lends. */
const MEMBERS = [
  'clockOffsetMs',
  'browserWallets',
  'redirectAt',
  'notice',
  'announce',
  'connectBrowser',
  'retryOptions',
  'changeWallet',
  'expireNow',
  'discoverWallets',
  'newAddress',
  'loadOptions',
  'onUnreachable',
  'onStatus',
  'devWallet',
  'expire',
  'kit',
  'spinner',
  'optionSummary',
  'transactionDetail',
  'formatToken',
  'minorToDecimal',
  'payByPhone',
]

export const PRIVATE_NAMES: readonly string[] = [...WORDS, ...MEMBERS]

export const privateNames = new RegExp(`^(?:${PRIVATE_NAMES.join('|')})$`)
