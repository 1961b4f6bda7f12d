import { z } from 'zod'
import { flag } from '../config/flag.ts'
import { httpUrlFlag } from '../config/flags.ts'
import { systemClock } from '../core/clock.ts'
import { DASHBOARD_ROLES, dashboardPeople, dashboardUrls } from '../dashboard/index.ts'
import { accountStore } from '../accounts/index.ts'
import { adminCommand, type Command, id, partnerFlag } from './admin-command.ts'
import { UsageError } from './args.ts'

/** `till user invite`: the first dashboard user of a partner (issue 25), whose link the operator sends them. */
export const USER_COMMANDS: Record<string, Command> = {
  'user invite': adminCommand({
    usage: 'till user invite --partner ID --email EMAIL --role ROLE --public-url URL [--merchant ID] [options]',
    about:
      "Invites someone to the partner's dashboard and prints their single-use invitation link, valid 24 hours. Till " +
      'sends no email: send them the link. The owner role can invite the rest of the team from the dashboard.',
    flags: {
      partner: partnerFlag('The partner the user joins'),
      email: flag({ type: 'string', value: 'EMAIL', schema: z.string().min(1, { message: 'is required' }), help: 'Their email address' }),
      role: flag({
        type: 'string',
        value: 'ROLE',
        schema: z.enum(DASHBOARD_ROLES, { message: `must be one of ${DASHBOARD_ROLES.join(', ')}` }),
        help: 'owner (everything, the team included), admin (all but the team) or viewer (read only)',
      }),
      merchant: flag({ type: 'string', value: 'ID', schema: id.optional(), help: "Limits them to this merchant's payments" }),
      'public-url': flag({
        type: 'string',
        value: 'URL',
        env: 'TILL_PUBLIC_URL',
        schema: httpUrlFlag,
        help: "The service's address for people, as `till serve --public-url` has it: the link starts with it",
      }),
    },
    run: async (db, flags) => {
      const accounts = accountStore(db)
      if (!(await accounts.findPartner(flags.partner))) throw new UsageError(`There is no partner ${flags.partner}.`)
      if (flags.merchant !== undefined) {
        const merchant = await accounts.findMerchant(flags.merchant)
        if (merchant?.partnerId !== flags.partner) throw new UsageError(`Partner ${flags.partner} has no merchant ${flags.merchant}.`)
      }
      const people = dashboardPeople({ db, clock: systemClock })
      const { token, invitation } = await people.invite({
        partnerId: flags.partner,
        email: flags.email,
        role: flags.role,
        merchantId: flags.merchant ?? null,
        invitedBy: null,
        origin: { address: null },
      })
      const url = dashboardUrls({ checkoutUrl: () => flags['public-url'], publicUrl: () => flags['public-url'].replace(/\/+$/, '') })
      return {
        invitationUrl: url.invitation(token),
        email: invitation.email,
        role: invitation.role,
        expiresAt: invitation.expiresAt.toISOString(),
      }
    },
    say: (r) => `Invitation for ${r.email} (${r.role}), single-use, until ${r.expiresAt}:\n${r.invitationUrl}`,
  }),
}
