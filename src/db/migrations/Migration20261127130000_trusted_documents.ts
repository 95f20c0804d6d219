import { Migration } from '@mikro-orm/migrations';

/**
 * A client an admin marks trusted-documents-only runs only the documents of the persisted-documents
 * manifest (src/graphql/trusted-documents.ts). Every existing client keeps sending full documents.
 */
export class Migration20261127130000_trusted_documents extends Migration {
  override up(): void {
    this.addSql('alter table api_client add column trusted_documents_only boolean not null default false;');
  }

  override down(): void {
    this.addSql('alter table api_client drop column trusted_documents_only;');
  }
}
