import { Migration } from '@mikro-orm/migrations';

/**
 * The key of the claim that took a deposit's credit, and its client (claimDepositCredit): a later
 * claim by that client under that key is the same claim, retried after its answer was lost, and is
 * told again that it won. Credits claimed before this column existed have no key: every later claim
 * of them answers `firstClaim: false`, as it did.
 */
export class Migration20261206110000_deposit_credit_claim_key extends Migration {
  override up(): void {
    this.addSql('alter table deposit add column credit_claim_key varchar(255) null, add column credit_claimed_by varchar(30) null;');
  }

  override down(): void {
    this.addSql('alter table deposit drop column credit_claim_key, drop column credit_claimed_by;');
  }
}
