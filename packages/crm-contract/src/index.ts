// The CRM contract's types as one package (@crm-rules/crm-contract): the shapes of the CRM's API
// (docs/CRM-API.md) and the segment filter constraints, shared by the engine and the CRM sandbox,
// so the emulator and its client agree on one definition. It imports nothing.
export * from './crm-types';
export * from './segment-filter-constraints';
