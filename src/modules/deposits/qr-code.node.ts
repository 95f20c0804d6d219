// GraphQL shape of the QR code on a THAI_QR deposit, with its SVG rendered on request.

import { Field, FieldResolver, ObjectType, Resolver, Root } from 'type-graphql';
import { renderQrSvg } from '../../lib/qr-svg.js';

@ObjectType('QrCode', { simpleResolvers: true, description: 'A Thai QR code (PromptPay) for the payer to scan with a banking app.' })
export class QrCodeNode {
  @Field({ description: 'The EMVCo payload the code encodes.' })
  payload!: string;

  @Field({ description: 'When the code stops accepting payment (the deposit then fails or expires).' })
  expiresAt!: Date;
}

/** The SVG is rendered only when asked for: it is the largest field of a deposit. */
@Resolver(() => QrCodeNode)
export class QrCodeFieldResolver {
  @FieldResolver(() => String, { description: 'The code as an SVG image, ready to put on a page.' })
  svg(@Root() code: QrCodeNode): Promise<string> {
    return renderQrSvg(code.payload);
  }
}
