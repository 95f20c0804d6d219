// The Relay `Node` interface: every object with a global id implements it.

import { Field, ID, InterfaceType } from 'type-graphql';

@InterfaceType({ description: 'An object with a global id. Ids carry a type prefix: cli_, dep_, rfd_, pay_, wdr_, evt_.' })
export abstract class Node {
  @Field(() => ID, { description: 'Global id, stable forever; its prefix names the type.' })
  id!: string;
}
