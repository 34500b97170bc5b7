// The seed format of the sandbox (YAML or JSON), documented in docs/SANDBOX.md.
// Ids are optional (stable ids are derived from the org and the item's name); references
// between items may use an id or a name (members also by email, contacts also by phone);
// dates may be ISO 8601 or relative to load time (`now-3d`).

export type Ref = string;

export interface FixtureApiKey {
  key: string;
  name?: string;
  /** Scope names, `*` (all) or `*.read` (every read scope). */
  scopes: string[];
  revoked?: boolean;
  /** The member who created the key (whose contacts are "my" conversations). */
  member?: Ref;
}

export interface FixtureMember {
  id?: string;
  name: string;
  email: string;
  role?: string;
  status?: string;
  jobTitle?: string | null;
  phoneNumber?: string | null;
  avatar?: string | null;
  createdAt?: string;
}

export interface FixtureStage {
  id?: string;
  name: string;
  color?: string | null;
  description?: string | null;
  badge?: string | null;
  isInProgress?: boolean;
}

export interface FixtureTag {
  id?: string;
  name: string;
  color?: string;
}

export interface FixtureCustomField {
  id?: string;
  name: string;
  fieldKey?: string;
  type: 'TEXT' | 'SINGLE_SELECT' | 'MULTI_SELECT' | 'URL';
  description?: string | null;
  status?: 'ACTIVE' | 'ARCHIVED';
  options?: { id?: string; label: string; color?: string }[];
}

export interface FixtureChannel {
  id?: string;
  name: string;
  platformType: string;
  status: 'connected' | 'disconnected';
}

export interface FixtureContact {
  id?: string;
  name: string;
  phone: string;
  email?: string | null;
  avatar?: string | null;
  notes?: string | null;
  status?: 'active' | 'archived';
  isBlocked?: boolean;
  sourceMethod?: string;
  assignee?: Ref | null;
  stage?: Ref | null;
  tags?: Ref[];
  /** fieldKey → value; select fields take option ids or labels. */
  customFields?: Record<string, unknown>;
  createdAt?: string;
  updatedAt?: string;
  lastInteractionAt?: string | null;
}

export interface FixtureMessage {
  text?: string;
  isOutgoing: boolean;
  at?: string;
  messagePlatformId?: string;
  attachment?: {
    url: string;
    type: 'image' | 'video' | 'audio' | 'document';
    name: string;
    fileSize?: number;
  };
}

export interface FixtureConversation {
  id?: string;
  contact: Ref;
  channel: Ref;
  status?: 'active' | 'archived';
  unreadCount?: number;
  messages?: FixtureMessage[];
}

export interface FixtureSegment {
  id?: string;
  name: string;
  filters: Record<string, unknown>;
}

export interface FixtureBroadcast {
  id?: string;
  name: string;
  channelName: string;
  segmentName: string;
  status: string;
  totalCount?: number;
  sentCount?: number;
  deliveredCount?: number;
  readCount?: number;
  repliedCount?: number;
  failedCount?: number;
  skippedCount?: number;
  sentAt?: string | null;
  createdAt?: string;
  errorCode?: string | null;
  errorMessage?: string | null;
}

export interface FixtureTemplate {
  id?: string;
  name: string;
  language?: string;
  category?: string;
  status?: 'APPROVED' | 'PENDING' | 'REJECTED' | 'PAUSED';
  /** Body text; `{{1}}`, `{{2}}` ... are replaced by bodyParameters when sent. */
  body: string;
}

export interface FixtureOrg {
  id?: string;
  name: string;
  apiKeys: FixtureApiKey[];
  members?: FixtureMember[];
  stages?: FixtureStage[];
  tags?: FixtureTag[];
  customFields?: FixtureCustomField[];
  channels?: FixtureChannel[];
  contacts?: FixtureContact[];
  conversations?: FixtureConversation[];
  segments?: FixtureSegment[];
  broadcasts?: FixtureBroadcast[];
  templates?: FixtureTemplate[];
  /**
   * Ids the sandbox gives contacts created through the API later (POST /v1/contacts), by phone:
   * a demo that creates the same contact at every start (Dana Demo) keeps one id, so links to
   * it hold across restarts. Used once: a contact deleted and created again gets a new id.
   */
  contactIdsByPhone?: Record<string, string>;
}

export interface SandboxFixture {
  organizations: FixtureOrg[];
}
