import {
  EventSubscriber,
  type AfterQueryEvent,
  type BeforeQueryEvent,
  type EntitySubscriberInterface,
} from 'typeorm';
import { SqliteReadGate } from './sqlite-read-gate';

/** Registered on SQLite only (data-source-options.ts). */
@EventSubscriber()
export class SqliteReadGateSubscriber implements EntitySubscriberInterface {
  beforeQuery(event: BeforeQueryEvent): Promise<void> | void {
    return SqliteReadGate.of(event.dataSource).enter();
  }

  afterQuery(event: AfterQueryEvent): void {
    SqliteReadGate.of(event.dataSource).leave();
  }
}
