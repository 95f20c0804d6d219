import { Migration } from '@mikro-orm/migrations';

/** Remember why a deposit's submission to its provider failed, so it can be resubmitted safely. */
export class Migration20261121110000_deposit_submission extends Migration {
  override up(): void {
    this.addSql('alter table deposit add column submission_error varchar(64) null;');
  }

  override down(): void {
    this.addSql('alter table deposit drop column submission_error;');
  }
}
