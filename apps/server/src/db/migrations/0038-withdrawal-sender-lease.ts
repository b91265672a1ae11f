import type { Kysely } from 'kysely'

/**
 * The withdrawal sender's lease (docs/money.md "Withdrawals", docs/operations.md "How the instances coordinate"): an
 * instance's sender pass takes the open withdrawals it works on for a short while — `sender_lease_by` names the
 * instance, `sender_lease_until` is when another instance may take them — in one statement (`for update skip locked`,
 * no row lock held after it), so that each withdrawal is prepared and asked about by one instance, not by every one.
 * The lease decides only who does the work: what keeps a payout once is still the crash-safety rule (every status
 * change conditional on the status and the signature read), so an expired or ignored lease costs work, never money.
 * Both are meaningless once the withdrawal is no longer 'pending' or 'sent'.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('withdrawals')
    .addColumn('sender_lease_by', 'text')
    .addColumn('sender_lease_until', 'timestamptz')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('withdrawals').dropColumn('sender_lease_until').dropColumn('sender_lease_by').execute()
}
