// This service's outgoing_mail is the one @checkpoint/mail defines (the test: @checkpoint/testkit).
import { describeMailQueueTable } from '@checkpoint/testkit';
import { identityService } from '../src/index.ts';

describeMailQueueTable(identityService);
