import { Migration } from '@mikro-orm/migrations';

/**
 * Release jobs of deferred webhook deliveries (`webhook.release_deferred`) written before the job
 * named its subject kind carried only a `depositId`: each waiting one is given the subject it
 * meant, so the inbox, which names no subject kind, releases it like any other.
 */
export class Migration20261212100000_release_deferred_subject extends Migration {
  override up(): void {
    this.addSql(`update job set payload = jsonb_build_object('subjectType', 'deposit', 'subjectId', payload->>'depositId')
      where kind = 'webhook.release_deferred' and payload ? 'depositId' and not payload ? 'subjectId'`);
  }

  override down(): void {
    // The new payload is one the old code also read: nothing to undo.
  }
}
