import { Migration } from '@mikro-orm/migrations';

/**
 * When the credit of a SUCCEEDED deposit was first claimed (claimDepositCredit): the one place that
 * says the player was credited, so every later claim, from any instance or transport, answers that
 * it was claimed already. Existing deposits were never claimed through the gateway.
 */
export class Migration20261127150000_deposit_credit_claim extends Migration {
  override up(): void {
    this.addSql('alter table deposit add column credit_claimed_at timestamptz null;');
  }

  override down(): void {
    this.addSql('alter table deposit drop column credit_claimed_at;');
  }
}
