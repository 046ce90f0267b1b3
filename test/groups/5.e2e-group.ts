import { runSpecGroup } from '../support/spec-groups';

runSpecGroup(5, 10);
