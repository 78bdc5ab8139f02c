PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE `project` (
          `id` text PRIMARY KEY,
          `worktree` text NOT NULL,
          `vcs` text,
          `name` text,
          `icon_url` text,
          `icon_url_override` text,
          `icon_color` text,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL,
          `time_initialized` integer,
          `sandboxes` text NOT NULL,
          `commands` text
        );
INSERT INTO project VALUES('bfbe7e6e8cf5e5b6a377db0e9cb007f75a5531d9','/home/user/project','git',NULL,NULL,NULL,NULL,1796159681470,1796159789906,NULL,'[]',NULL);
CREATE TABLE `message` (
          `id` text PRIMARY KEY,
          `session_id` text NOT NULL,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL,
          `data` text NOT NULL,
          CONSTRAINT `fk_message_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE
        );
INSERT INTO message VALUES('msg_23375b819001qGs3AthIPHEMs0','ses_dcc8a48b2ffe0b08GClTft0bH1',1796159682585,1796159688715,'{"role":"user","time":{"created":1796159682585},"agent":"build","model":{"providerID":"mock","modelID":"mock-model"},"summary":{"diffs":[]}}');
INSERT INTO message VALUES('msg_23375be48001FLGfEMDTbWI58q','ses_dcc8a48b2ffe0b08GClTft0bH1',1796159684169,1796159688346,'{"parentID":"msg_23375b819001qGs3AthIPHEMs0","role":"assistant","mode":"build","agent":"build","path":{"cwd":"/home/user/project","root":"/home/user/project"},"cost":0,"tokens":{"total":7705,"input":7698,"output":7,"reasoning":0,"cache":{"write":0,"read":0}},"modelID":"mock-model","providerID":"mock","time":{"created":1796159684169,"completed":1796159688344},"finish":"tool-calls"}');
INSERT INTO message VALUES('msg_23375cea5001ssj1hos6enL1v4','ses_dcc8a48b2ffe0b08GClTft0bH1',1796159688357,1796159689037,'{"parentID":"msg_23375b819001qGs3AthIPHEMs0","role":"assistant","mode":"build","agent":"build","path":{"cwd":"/home/user/project","root":"/home/user/project"},"cost":0,"tokens":{"total":7776,"input":7766,"output":10,"reasoning":0,"cache":{"write":0,"read":0}},"modelID":"mock-model","providerID":"mock","time":{"created":1796159688357,"completed":1796159689035},"finish":"stop"}');
INSERT INTO message VALUES('msg_23375ebe2001bJ5w5513w2dPhw','ses_dcc8a48b2ffe0b08GClTft0bH1',1796159695842,1796159698310,'{"role":"user","time":{"created":1796159695842},"agent":"build","model":{"providerID":"mock","modelID":"mock-model"},"summary":{"diffs":[]}}');
INSERT INTO message VALUES('msg_23375f442001q00oV64AVFh4ze','ses_dcc8a48b2ffe0b08GClTft0bH1',1796159697986,1796159700323,'{"parentID":"msg_23375ebe2001bJ5w5513w2dPhw","role":"assistant","mode":"build","agent":"build","path":{"cwd":"/home/user/project","root":"/home/user/project"},"cost":0,"tokens":{"total":7795,"input":7792,"output":3,"reasoning":0,"cache":{"write":0,"read":0}},"modelID":"mock-model","providerID":"mock","time":{"created":1796159697986,"completed":1796159700320},"finish":"stop"}');
INSERT INTO message VALUES('msg_2337610a7001DalO2N0oHinaPy','ses_dcc89f03bffelJcVJsagDONsR1',1796159705255,1796159707792,'{"role":"user","time":{"created":1796159705255},"agent":"build","model":{"providerID":"mock","modelID":"mock-model"},"summary":{"diffs":[]}}');
INSERT INTO message VALUES('msg_233761981001WEtlqee8DQXVYF','ses_dcc89f03bffelJcVJsagDONsR1',1796159707521,1796159709573,'{"parentID":"msg_2337610a7001DalO2N0oHinaPy","role":"assistant","mode":"build","agent":"build","path":{"cwd":"/home/user/project","root":"/home/user/project"},"cost":0,"tokens":{"total":7766,"input":7760,"output":6,"reasoning":0,"cache":{"write":0,"read":0}},"modelID":"mock-model","providerID":"mock","time":{"created":1796159707521,"completed":1796159709570},"finish":"stop"}');
INSERT INTO message VALUES('msg_233762e60001Rf4JhOChhCUcWd','ses_dcc89f03bffelJcVJsagDONsR1',1796159712865,1796159715058,'{"role":"user","time":{"created":1796159712865},"agent":"build","model":{"providerID":"mock","modelID":"mock-model"},"summary":{"diffs":[]}}');
INSERT INTO message VALUES('msg_233763622001NfxYGhiRU61MAw','ses_dcc89f03bffelJcVJsagDONsR1',1796159714851,1796159717812,'{"parentID":"msg_233762e60001Rf4JhOChhCUcWd","role":"assistant","mode":"build","agent":"build","path":{"cwd":"/home/user/project","root":"/home/user/project"},"cost":0,"tokens":{"total":7794,"input":7787,"output":7,"reasoning":0,"cache":{"write":0,"read":0}},"modelID":"mock-model","providerID":"mock","time":{"created":1796159714851,"completed":1796159717809},"finish":"stop"}');
INSERT INTO message VALUES('msg_23376a317001bHci9rLhNUx1cL','ses_dcc895ef6ffevHMFGgZJarUY44',1796159742744,1796159774684,'{"role":"user","time":{"created":1796159742744},"agent":"build","model":{"providerID":"mock","modelID":"mock-model"},"summary":{"diffs":[]}}');
INSERT INTO message VALUES('msg_23376a4d1001X6gvXZ1ZnYtGSt','ses_dcc895ef6ffevHMFGgZJarUY44',1796159743185,1796159773798,'{"parentID":"msg_23376a317001bHci9rLhNUx1cL","role":"assistant","mode":"build","agent":"build","path":{"cwd":"/home/user/project","root":"/home/user/project"},"cost":0,"tokens":{"total":8084,"input":8077,"output":7,"reasoning":0,"cache":{"write":0,"read":0}},"modelID":"mock-model","providerID":"mock","time":{"created":1796159743185,"completed":1796159773796},"finish":"tool-calls"}');
INSERT INTO message VALUES('msg_233771c92001ntEPwG2gRZPcS5','ses_dcc895ef6ffevHMFGgZJarUY44',1796159773842,1796159776580,'{"parentID":"msg_23376a317001bHci9rLhNUx1cL","role":"assistant","mode":"build","agent":"build","path":{"cwd":"/home/user/project","root":"/home/user/project"},"cost":0,"tokens":{"total":8154,"input":8144,"output":10,"reasoning":0,"cache":{"write":0,"read":0}},"modelID":"mock-model","providerID":"mock","time":{"created":1796159773842,"completed":1796159776562},"finish":"stop"}');
INSERT INTO message VALUES('msg_23377ca55001y0hTkgeruv7LYt','ses_dcc895ef6ffevHMFGgZJarUY44',1796159818326,1796159837076,'{"role":"user","time":{"created":1796159818326},"agent":"build","model":{"providerID":"mock","modelID":"mock-model"},"summary":{"diffs":[]}}');
INSERT INTO message VALUES('msg_23377d0f5001fsJo9Pd9x0mgTH','ses_dcc895ef6ffevHMFGgZJarUY44',1796159820021,1796159858884,'{"parentID":"msg_23377ca55001y0hTkgeruv7LYt","role":"assistant","mode":"build","agent":"build","path":{"cwd":"/home/user/project","root":"/home/user/project"},"cost":0,"tokens":{"total":8213,"input":8208,"output":5,"reasoning":0,"cache":{"write":0,"read":0}},"modelID":"mock-model","providerID":"mock","time":{"created":1796159820021},"finish":"stop"}');
CREATE TABLE `part` (
          `id` text PRIMARY KEY,
          `message_id` text NOT NULL,
          `session_id` text NOT NULL,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL,
          `data` text NOT NULL,
          CONSTRAINT `fk_part_message_id_message_id_fk` FOREIGN KEY (`message_id`) REFERENCES `message`(`id`) ON DELETE CASCADE
        );
INSERT INTO part VALUES('prt_23375b826001Ps78bpIVygPruS','msg_23375b819001qGs3AthIPHEMs0','ses_dcc8a48b2ffe0b08GClTft0bH1',1796159682606,1796159682608,'{"type":"text","text":"hello RUN_TOOL"}');
INSERT INTO part VALUES('prt_23375cb760018W7h7vu45tlWpA','msg_23375be48001FLGfEMDTbWI58q','ses_dcc8a48b2ffe0b08GClTft0bH1',1796159687543,1796159687545,'{"snapshot":"96e9ce5aded7a6657a4ddceac38507ddf6b30437","type":"step-start"}');
INSERT INTO part VALUES('prt_23375cb80001wfsPUfX3zmyfuz','msg_23375be48001FLGfEMDTbWI58q','ses_dcc8a48b2ffe0b08GClTft0bH1',1796159687552,1796159687888,'{"type":"tool","tool":"bash","callID":"call_mock_bb72b3bf363d46fe274c25d3","state":{"status":"completed","input":{"command":"echo hello"},"output":"hello\n","metadata":{"output":"hello\n","exit":0,"truncated":false},"title":"echo hello","time":{"start":1796159687569,"end":1796159687887}}}');
INSERT INTO part VALUES('prt_23375cdd2001KqutegS2QxM1lv','msg_23375be48001FLGfEMDTbWI58q','ses_dcc8a48b2ffe0b08GClTft0bH1',1796159688146,1796159688149,'{"reason":"tool-calls","snapshot":"96e9ce5aded7a6657a4ddceac38507ddf6b30437","type":"step-finish","tokens":{"total":7705,"input":7698,"output":7,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}');
INSERT INTO part VALUES('prt_23375cfe200175K7K3oJlae2Em','msg_23375cea5001ssj1hos6enL1v4','ses_dcc8a48b2ffe0b08GClTft0bH1',1796159688675,1796159688677,'{"snapshot":"96e9ce5aded7a6657a4ddceac38507ddf6b30437","type":"step-start"}');
INSERT INTO part VALUES('prt_23375cfeb0018QiT0EKNbD3kRr','msg_23375cea5001ssj1hos6enL1v4','ses_dcc8a48b2ffe0b08GClTft0bH1',1796159688684,1796159688697,'{"type":"text","text":"TOOL_DONE: hello | ACK: hello RUN_TOOL","time":{"start":1796159688684,"end":1796159688695}}');
INSERT INTO part VALUES('prt_23375d0d8001ivantZWxW7ftgA','msg_23375cea5001ssj1hos6enL1v4','ses_dcc8a48b2ffe0b08GClTft0bH1',1796159688921,1796159688924,'{"reason":"stop","snapshot":"96e9ce5aded7a6657a4ddceac38507ddf6b30437","type":"step-finish","tokens":{"total":7776,"input":7766,"output":10,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}');
INSERT INTO part VALUES('prt_23375ebea001QtjccN3imwV3Af','msg_23375ebe2001bJ5w5513w2dPhw','ses_dcc8a48b2ffe0b08GClTft0bH1',1796159695873,1796159695878,'{"type":"text","text":"again"}');
INSERT INTO part VALUES('prt_23375fc85001uVULxQqn8i166A','msg_23375f442001q00oV64AVFh4ze','ses_dcc8a48b2ffe0b08GClTft0bH1',1796159700102,1796159700105,'{"snapshot":"96e9ce5aded7a6657a4ddceac38507ddf6b30437","type":"step-start"}');
INSERT INTO part VALUES('prt_23375fc8c001ak2J7xpOxPKARB','msg_23375f442001q00oV64AVFh4ze','ses_dcc8a48b2ffe0b08GClTft0bH1',1796159700108,1796159700116,'{"type":"text","text":"ACK: again","time":{"start":1796159700108,"end":1796159700114}}');
INSERT INTO part VALUES('prt_23375fcdc0018Kgid7Ksd7MUHQ','msg_23375f442001q00oV64AVFh4ze','ses_dcc8a48b2ffe0b08GClTft0bH1',1796159700189,1796159700190,'{"reason":"stop","snapshot":"96e9ce5aded7a6657a4ddceac38507ddf6b30437","type":"step-finish","tokens":{"total":7795,"input":7792,"output":3,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}');
INSERT INTO part VALUES('prt_2337610cb001KZM33ben5svdo3','msg_2337610a7001DalO2N0oHinaPy','ses_dcc89f03bffelJcVJsagDONsR1',1796159705313,1796159705325,'{"type":"text","text":"hello with context"}');
INSERT INTO part VALUES('prt_2337620c6001o6PLY6Sa6BDHBu','msg_233761981001WEtlqee8DQXVYF','ses_dcc89f03bffelJcVJsagDONsR1',1796159709382,1796159709384,'{"snapshot":"96e9ce5aded7a6657a4ddceac38507ddf6b30437","type":"step-start"}');
INSERT INTO part VALUES('prt_2337620cb001z3R1S8FswTD3cr','msg_233761981001WEtlqee8DQXVYF','ses_dcc89f03bffelJcVJsagDONsR1',1796159709387,1796159709394,'{"type":"text","text":"ACK: hello with context","time":{"start":1796159709387,"end":1796159709392}}');
INSERT INTO part VALUES('prt_23376211f00109DyCpLx5p5S8D','msg_233761981001WEtlqee8DQXVYF','ses_dcc89f03bffelJcVJsagDONsR1',1796159709471,1796159709473,'{"reason":"stop","snapshot":"96e9ce5aded7a6657a4ddceac38507ddf6b30437","type":"step-finish","tokens":{"total":7766,"input":7760,"output":6,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}');
INSERT INTO part VALUES('prt_233762e650018Pk51HqdQvcGta','msg_233762e60001Rf4JhOChhCUcWd','ses_dcc89f03bffelJcVJsagDONsR1',1796159712882,1796159712885,'{"type":"text","text":"resumed with context"}');
INSERT INTO part VALUES('prt_233763ff80011JWiA15X51jGHY','msg_233763622001NfxYGhiRU61MAw','ses_dcc89f03bffelJcVJsagDONsR1',1796159717369,1796159717372,'{"snapshot":"96e9ce5aded7a6657a4ddceac38507ddf6b30437","type":"step-start"}');
INSERT INTO part VALUES('prt_233764000001l813GfVjUHEZ19','msg_233763622001NfxYGhiRU61MAw','ses_dcc89f03bffelJcVJsagDONsR1',1796159717376,1796159717388,'{"type":"text","text":"ACK: resumed with context","time":{"start":1796159717376,"end":1796159717385}}');
INSERT INTO part VALUES('prt_2337641020014oTGqlmEtO9k5P','msg_233763622001NfxYGhiRU61MAw','ses_dcc89f03bffelJcVJsagDONsR1',1796159717634,1796159717638,'{"reason":"stop","snapshot":"96e9ce5aded7a6657a4ddceac38507ddf6b30437","type":"step-finish","tokens":{"total":7794,"input":7787,"output":7,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}');
INSERT INTO part VALUES('prt_23376a31c001XxY1qos9tYD3ky','msg_23376a317001bHci9rLhNUx1cL','ses_dcc895ef6ffevHMFGgZJarUY44',1796159742758,1796159742763,'{"type":"text","text":"hello RUN_TOOL"}');
INSERT INTO part VALUES('prt_233770ff700120H0dByf60j4AP','msg_23376a4d1001X6gvXZ1ZnYtGSt','ses_dcc895ef6ffevHMFGgZJarUY44',1796159770615,1796159770641,'{"snapshot":"96e9ce5aded7a6657a4ddceac38507ddf6b30437","type":"step-start"}');
INSERT INTO part VALUES('prt_233771032001vfVe0XS2GEPB43','msg_23376a4d1001X6gvXZ1ZnYtGSt','ses_dcc895ef6ffevHMFGgZJarUY44',1796159770674,1796159771812,'{"type":"tool","tool":"bash","callID":"call_mock_1e0148b65ff67bfd87296ed0","state":{"status":"completed","input":{"command":"echo hello"},"output":"hello\n","metadata":{"output":"hello\n","exit":0,"truncated":false},"title":"echo hello","time":{"start":1796159770756,"end":1796159771811}}}');
INSERT INTO part VALUES('prt_233771831001Rey7CD9DdJGwjs','msg_23376a4d1001X6gvXZ1ZnYtGSt','ses_dcc895ef6ffevHMFGgZJarUY44',1796159772722,1796159772793,'{"reason":"tool-calls","snapshot":"96e9ce5aded7a6657a4ddceac38507ddf6b30437","type":"step-finish","tokens":{"total":8084,"input":8077,"output":7,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}');
INSERT INTO part VALUES('prt_233771f75001v7jK2cQozs4HOz','msg_233771c92001ntEPwG2gRZPcS5','ses_dcc895ef6ffevHMFGgZJarUY44',1796159774590,1796159774592,'{"snapshot":"96e9ce5aded7a6657a4ddceac38507ddf6b30437","type":"step-start"}');
INSERT INTO part VALUES('prt_233771f8d001ALkRtJKmP7vHX8','msg_233771c92001ntEPwG2gRZPcS5','ses_dcc895ef6ffevHMFGgZJarUY44',1796159774605,1796159774620,'{"type":"text","text":"TOOL_DONE: hello | ACK: hello RUN_TOOL","time":{"start":1796159774605,"end":1796159774618}}');
INSERT INTO part VALUES('prt_233772381001kDQ8eY1ef6iZpA','msg_233771c92001ntEPwG2gRZPcS5','ses_dcc895ef6ffevHMFGgZJarUY44',1796159775617,1796159775653,'{"reason":"stop","snapshot":"96e9ce5aded7a6657a4ddceac38507ddf6b30437","type":"step-finish","tokens":{"total":8154,"input":8144,"output":10,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}');
INSERT INTO part VALUES('prt_23377cb77001n9FIyxY1oh3glE','msg_23377ca55001y0hTkgeruv7LYt','ses_dcc895ef6ffevHMFGgZJarUY44',1796159818681,1796159818770,'{"type":"text","text":"resumed in tui"}');
INSERT INTO part VALUES('prt_23378637c001gTzqe5wBotHFcx','msg_23377d0f5001fsJo9Pd9x0mgTH','ses_dcc895ef6ffevHMFGgZJarUY44',1796159857532,1796159857534,'{"snapshot":"96e9ce5aded7a6657a4ddceac38507ddf6b30437","type":"step-start"}');
INSERT INTO part VALUES('prt_233786385001B181uwjfuta6YM','msg_23377d0f5001fsJo9Pd9x0mgTH','ses_dcc895ef6ffevHMFGgZJarUY44',1796159857541,1796159857569,'{"type":"text","text":"ACK: resumed in tui","time":{"start":1796159857541,"end":1796159857546}}');
INSERT INTO part VALUES('prt_2337868aa001huw5Uth4VPxqzu','msg_23377d0f5001fsJo9Pd9x0mgTH','ses_dcc895ef6ffevHMFGgZJarUY44',1796159858859,1796159858872,'{"reason":"stop","snapshot":"96e9ce5aded7a6657a4ddceac38507ddf6b30437","type":"step-finish","tokens":{"total":8213,"input":8208,"output":5,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}');
CREATE TABLE `session` (
          `id` text PRIMARY KEY,
          `project_id` text NOT NULL,
          `workspace_id` text,
          `parent_id` text,
          `slug` text NOT NULL,
          `directory` text NOT NULL,
          `path` text,
          `title` text NOT NULL,
          `version` text NOT NULL,
          `share_url` text,
          `summary_additions` integer,
          `summary_deletions` integer,
          `summary_files` integer,
          `summary_diffs` text,
          `metadata` text,
          `cost` real DEFAULT 0 NOT NULL,
          `tokens_input` integer DEFAULT 0 NOT NULL,
          `tokens_output` integer DEFAULT 0 NOT NULL,
          `tokens_reasoning` integer DEFAULT 0 NOT NULL,
          `tokens_cache_read` integer DEFAULT 0 NOT NULL,
          `tokens_cache_write` integer DEFAULT 0 NOT NULL,
          `revert` text,
          `permission` text,
          `agent` text,
          `model` text,
          `time_created` integer NOT NULL,
          `time_updated` integer NOT NULL,
          `time_compacting` integer,
          `time_archived` integer,
          CONSTRAINT `fk_session_project_id_project_id_fk` FOREIGN KEY (`project_id`) REFERENCES `project`(`id`) ON DELETE CASCADE
        );
INSERT INTO session VALUES('ses_dcc8a48b2ffe0b08GClTft0bH1','bfbe7e6e8cf5e5b6a377db0e9cb007f75a5531d9',NULL,NULL,'shiny-engine','/home/user/project','','ACK: hello RUN_TOOL','1.18.33',NULL,0,0,0,NULL,NULL,0.0,23256,20,0,0,0,NULL,'[{"permission":"question","pattern":"*","action":"deny"},{"permission":"plan_enter","pattern":"*","action":"deny"},{"permission":"plan_exit","pattern":"*","action":"deny"}]','build','{"id":"mock-model","providerID":"mock","variant":"default"}',1796159682383,1796159700349,NULL,NULL);
INSERT INTO session VALUES('ses_dcc89f03bffelJcVJsagDONsR1','bfbe7e6e8cf5e5b6a377db0e9cb007f75a5531d9',NULL,NULL,'misty-sailor','/home/user/project','','ACK: hello with context','1.18.33',NULL,0,0,0,NULL,NULL,0.0,15547,13,0,0,0,NULL,'[{"permission":"question","pattern":"*","action":"deny"},{"permission":"plan_enter","pattern":"*","action":"deny"},{"permission":"plan_exit","pattern":"*","action":"deny"}]','build','{"id":"mock-model","providerID":"mock","variant":"default"}',1796159705029,1796159717836,NULL,NULL);
INSERT INTO session VALUES('ses_dcc895ef6ffevHMFGgZJarUY44','bfbe7e6e8cf5e5b6a377db0e9cb007f75a5531d9',NULL,NULL,'shiny-eagle','/home/user/project','','ACK: hello RUN_TOOL','1.18.33',NULL,0,0,0,NULL,NULL,0.0,24429,22,0,0,0,NULL,NULL,'build','{"id":"mock-model","providerID":"mock"}',1796159742217,1796159836824,NULL,NULL);
COMMIT;
