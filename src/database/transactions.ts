import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { DeadlineExceededError, RequestDeadline } from '../common/http/request-deadline';

/**
 * The one way the service writes: every change runs in a transaction through `run`, which
 * - commits only while the request's deadline allows it, so a 504 never hides a committed change;
 * - on SQLite runs one transaction at a time: TypeORM shares one connection there, and two
 *   requests' transactions would otherwise interleave on it.
 */
@Injectable()
export class Transactions {
  private readonly logger = new Logger('Transactions');
  private readonly serialised: boolean;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.serialised = dataSource.options.type === 'better-sqlite3';
  }

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!this.serialised) return this.transaction(work);
    const result = this.tail.then(() => this.transaction(work));
    this.tail = result.catch(() => undefined);
    return result;
  }

  private async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const deadline = RequestDeadline.current();
    let committing = false;
    let committed = false;
    try {
      const result = await this.dataSource.transaction(async (manager) => {
        const value = await work(manager);
        deadline?.beginCommit();
        committing = true;
        return value;
      });
      committed = true;
      return result;
    } catch (error) {
      if (error instanceof DeadlineExceededError) {
        this.logger.warn('the request deadline passed before commit: its change was rolled back');
      }
      throw error;
    } finally {
      if (committing) deadline?.endCommit(committed);
    }
  }
}
