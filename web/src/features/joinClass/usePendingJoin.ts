// After sign-in or sign-up: a join code entered while signed out is used at once, then the app
// goes to /. Returns false when there was nothing to do.
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../app/hooks';
import { useToast } from '../../components/toast/useToast';
import { i18n } from '../../i18n/i18n';
import { authApi } from '../../session/authApi';
import { navRole, type User } from '../../session/user';
import { useJoinClassMutation } from '../classes';
import { joinErrorMessage } from './joinErrors';
import { takePendingJoinCode } from './pendingJoin';

export function usePendingJoin(): (user: Pick<User, 'role'> | undefined) => Promise<boolean> {
  const [join] = useJoinClassMutation();
  const toast = useToast();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  return useCallback(
    async (user) => {
      const code = takePendingJoinCode();
      if (!code || !user || navRole(user) !== 'student') return false;
      try {
        const result = await join({ joinCode: code }).unwrap();
        toast({
          title: i18n.t('common:join.success'),
          description: i18n.t('common:join.joined', { name: result.className }),
        });
      } catch (error) {
        toast({ title: i18n.t('common:toast.error'), description: joinErrorMessage(error), variant: 'destructive' });
      }
      // The session is new: load the signed-in user before showing the student's dashboard.
      const refresh = dispatch(authApi.endpoints.getCurrentUser.initiate(undefined, { forceRefetch: true }));
      await refresh;
      refresh.unsubscribe();
      navigate('/', { replace: true });
      return true;
    },
    [join, toast, dispatch, navigate],
  );
}
