/**
 * The groups of the OpenAPI document, in the order /docs shows them: what a merchant does first,
 * first (docs/api.md's order). Without this list Swagger UI orders the groups by the first
 * operation of each it meets, which put the wallet's history first and messages in the middle.
 */
export const OPENAPI_TAGS: readonly { readonly name: string; readonly description: string }[] = [
  {
    name: 'messages',
    description:
      'Send SMS (one, or a batch of up to 1,000), quote, schedule and cancel; read messages and their delivery reports.',
  },
  { name: 'sandbox', description: 'The key-less try-out: send to the sandbox numbers without an account.' },
  { name: 'billing', description: 'Credits left, and hosted checkouts to buy more.' },
  { name: 'wallet', description: "The wallet's history and statements, low-balance alerts and auto top-up." },
  {
    name: 'webhooks',
    description: 'Signed, ordered webhooks for delivery outcomes, and the events they carry.',
  },
  { name: 'compliance', description: 'Sender IDs, inbound messages and opt-outs.' },
  {
    name: 'verify',
    description: 'One-time codes over SMS: start, check, resend and cancel a verification; paid only when delivered.',
  },
  {
    name: 'audiences',
    description: 'Contacts, groups, CSV imports of contacts, and message templates with placeholders.',
  },
  {
    name: 'campaigns',
    description:
      'Campaigns to audiences: one personalised message per number of groups and contacts, every credit held at once; counts by status and carrier, a CSV report, cancel and retry.',
  },
  { name: 'audit', description: "The account's audit log: who did what, from where." },
];
