import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The double-entry ledger: accounts with running totals, journals, immutable entries and two-phase
 * holds. Two rules live in PostgreSQL itself: a journal's entries sum to zero per currency (a
 * deferred constraint trigger checked at commit), and journals and entries are append-only
 * (rows go only with their tenant: deleting the tenant, or with `app.erasing_tenant` set to it).
 */
export class Ledger1763850000001 implements MigrationInterface {
  name = 'Ledger1763850000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "ledger_accounts" (
        "id" uuid PRIMARY KEY,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "kind" text NOT NULL,
        "owner_id" text NULL,
        "currency" text NOT NULL,
        "keeps_totals" boolean NOT NULL,
        "no_overdraft" boolean NOT NULL,
        "debits_posted" numeric(38,8) NOT NULL DEFAULT 0,
        "credits_posted" numeric(38,8) NOT NULL DEFAULT 0,
        "debits_pending" numeric(38,8) NOT NULL DEFAULT 0,
        "credits_pending" numeric(38,8) NOT NULL DEFAULT 0,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "ledger_accounts_totals_check" CHECK (
          "debits_posted" >= 0 AND "credits_posted" >= 0 AND "debits_pending" >= 0 AND "credits_pending" >= 0),
        CONSTRAINT "ledger_accounts_no_overdraft_check" CHECK (
          NOT "no_overdraft" OR "debits_posted" + "debits_pending" <= "credits_posted"),
        CONSTRAINT "ledger_accounts_tenant_id_fkey" FOREIGN KEY ("tenant_id")
          REFERENCES "tenants"("id") ON DELETE CASCADE
      )`);
    await q.query(
      `CREATE INDEX "ledger_accounts_owner_idx" ON "ledger_accounts" ("owner_id") WHERE "owner_id" IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE "ledger_journals" (
        "id" uuid PRIMARY KEY,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "journal_key" text NOT NULL,
        "kind" text NOT NULL,
        "description" text NULL,
        "reference" text NULL,
        "effective_at" timestamptz NOT NULL,
        "reverses_journal_id" uuid NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "ledger_journals_tenant_id_fkey" FOREIGN KEY ("tenant_id")
          REFERENCES "tenants"("id") ON DELETE CASCADE,
        CONSTRAINT "ledger_journals_reverses_fkey" FOREIGN KEY ("reverses_journal_id")
          REFERENCES "ledger_journals"("id")
      )`);
    await q.query(
      `CREATE UNIQUE INDEX "ledger_journals_key" ON "ledger_journals" ("tenant_id", "livemode", "journal_key")`,
    );
    await q.query(
      `CREATE INDEX "ledger_journals_reference_idx" ON "ledger_journals" ("tenant_id", "livemode", "reference")
        WHERE "reference" IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE "ledger_entries" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "journal_id" uuid NOT NULL,
        "tenant_id" text NOT NULL,
        "ledger_account_id" uuid NOT NULL,
        "currency" text NOT NULL,
        "direction" text NOT NULL,
        "amount" numeric(38,8) NOT NULL,
        "effective_at" timestamptz NOT NULL,
        CONSTRAINT "ledger_entries_direction_check" CHECK ("direction" IN ('debit', 'credit')),
        CONSTRAINT "ledger_entries_amount_check" CHECK ("amount" > 0),
        CONSTRAINT "ledger_entries_journal_id_fkey" FOREIGN KEY ("journal_id")
          REFERENCES "ledger_journals"("id") ON DELETE CASCADE,
        CONSTRAINT "ledger_entries_tenant_id_fkey" FOREIGN KEY ("tenant_id")
          REFERENCES "tenants"("id") ON DELETE CASCADE,
        CONSTRAINT "ledger_entries_ledger_account_id_fkey" FOREIGN KEY ("ledger_account_id")
          REFERENCES "ledger_accounts"("id") ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX "ledger_entries_journal_idx" ON "ledger_entries" ("journal_id")`);
    await q.query(
      `CREATE INDEX "ledger_entries_account_idx" ON "ledger_entries" ("ledger_account_id", "effective_at")`,
    );
    await q.query(`
      CREATE TABLE "ledger_holds" (
        "id" uuid PRIMARY KEY,
        "tenant_id" text NOT NULL,
        "livemode" boolean NOT NULL,
        "hold_key" text NOT NULL,
        "kind" text NOT NULL,
        "debit_account_id" uuid NOT NULL,
        "credit_account_id" uuid NOT NULL,
        "currency" text NOT NULL,
        "amount" numeric(38,8) NOT NULL,
        "pending_amount" numeric(38,8) NOT NULL,
        "status" text NOT NULL DEFAULT 'pending',
        "reference" text NULL,
        "effective_at" timestamptz NOT NULL,
        "resolved_at" timestamptz NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "ledger_holds_kind_check" CHECK ("kind" IN ('deposit', 'withdrawal', 'order')),
        CONSTRAINT "ledger_holds_status_check" CHECK ("status" IN ('pending', 'posted', 'voided')),
        CONSTRAINT "ledger_holds_amount_check" CHECK (
          "amount" > 0 AND "pending_amount" >= 0 AND "pending_amount" <= "amount"),
        CONSTRAINT "ledger_holds_tenant_id_fkey" FOREIGN KEY ("tenant_id")
          REFERENCES "tenants"("id") ON DELETE CASCADE,
        CONSTRAINT "ledger_holds_debit_account_id_fkey" FOREIGN KEY ("debit_account_id")
          REFERENCES "ledger_accounts"("id") ON DELETE CASCADE,
        CONSTRAINT "ledger_holds_credit_account_id_fkey" FOREIGN KEY ("credit_account_id")
          REFERENCES "ledger_accounts"("id") ON DELETE CASCADE
      )`);
    await q.query(
      `CREATE UNIQUE INDEX "ledger_holds_key" ON "ledger_holds" ("tenant_id", "livemode", "hold_key")`,
    );
    await q.query(
      `CREATE INDEX "ledger_holds_debit_pending_idx" ON "ledger_holds" ("debit_account_id") WHERE "status" = 'pending'`,
    );
    await q.query(
      `CREATE INDEX "ledger_holds_credit_pending_idx" ON "ledger_holds" ("credit_account_id") WHERE "status" = 'pending'`,
    );

    // Zero sum per currency, checked once the transaction commits (entries arrive one by one).
    await q.query(`
      CREATE FUNCTION ledger_journal_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE unbalanced text;
      BEGIN
        SELECT currency INTO unbalanced FROM ledger_entries WHERE journal_id = NEW.journal_id
         GROUP BY currency
        HAVING sum(CASE WHEN direction = 'debit' THEN amount ELSE -amount END) <> 0
         LIMIT 1;
        IF unbalanced IS NOT NULL THEN
          RAISE EXCEPTION 'ledger journal % does not balance in %', NEW.journal_id, unbalanced
            USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_entries_balanced';
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE CONSTRAINT TRIGGER "ledger_entries_balanced" AFTER INSERT ON "ledger_entries"
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_journal_balanced()`);

    // Append-only: no UPDATE ever; DELETE only when the tenant itself is being erased.
    await q.query(`
      CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND (
             NOT EXISTS (SELECT 1 FROM tenants WHERE id = OLD.tenant_id)
             OR current_setting('app.erasing_tenant', true) = OLD.tenant_id) THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION '% is append-only: correct a journal by posting its reversal', TG_TABLE_NAME
          USING ERRCODE = 'object_not_in_prerequisite_state';
      END $$`);
    for (const table of ['ledger_journals', 'ledger_entries']) {
      await q.query(`
        CREATE TRIGGER "${table}_append_only" BEFORE UPDATE OR DELETE ON "${table}"
          FOR EACH ROW EXECUTE FUNCTION ledger_append_only()`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "ledger_holds"`);
    await q.query(`DROP TABLE "ledger_entries"`);
    await q.query(`DROP TABLE "ledger_journals"`);
    await q.query(`DROP TABLE "ledger_accounts"`);
    await q.query(`DROP FUNCTION ledger_append_only()`);
    await q.query(`DROP FUNCTION ledger_journal_balanced()`);
  }
}
