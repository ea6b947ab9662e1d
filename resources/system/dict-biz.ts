import { dictionaryResource } from './dict';

/** Business dictionaries: the same shape as system dictionaries, kept per tenant. */
export const dictBiz = dictionaryResource('dict-biz', 'dictbiz', 'blade_dict_biz', 'tenant');
