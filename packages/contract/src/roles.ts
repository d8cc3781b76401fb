import { z } from 'zod';
import { ROLES } from './role-table.ts';

/** A role as the API reads and writes it (role-table.ts has the roles and what each may do). */
export const roleSchema = z.enum(ROLES);
